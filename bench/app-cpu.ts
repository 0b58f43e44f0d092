/**
 * Issue 16: the app's CPU, side by side with another build (BENCH_BEFORE_DIR, e.g. main's checkout after
 * `npm run build` there). Range loads, the export and capacity are all limited by the app's one thread.
 *
 * a) CPU of the app's process tree (utime + stime of /proc) per 20,000-batch range through
 *    `/api/batches/stream` (gzip, as a browser asks), the two builds one after the other, each run;
 * b) `/api/batches` (one page of 100, uncompressed as autocannon asks) under autocannon with 50 connections,
 *    the two builds and the minimal `node:http` proxy of target 6 (bench/support/minimal-proxy.mjs) in turn.
 *
 * The sandbox answers at once (latency 0) in this process, so the app's CPU is what is measured. Without
 * BENCH_BEFORE_DIR only this checkout is measured. Knobs: BENCH_APP_CPU_RUNS (5), BENCH_APP_CPU_LOAD_S (8).
 */
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { parseStreamLine } from '../lib/contract/stream';
import { runDirectly } from './support/main';
import { signIn, startBenchApp, startBenchSandbox, startMinimalProxy, type BenchApp } from './support/stack';
import { median, type BenchResult } from './support/stats';

const RUNS = Number(process.env.BENCH_APP_CPU_RUNS ?? 5);
const LOAD_S = Number(process.env.BENCH_APP_CPU_LOAD_S ?? 8);
const BEFORE_DIR = process.env.BENCH_BEFORE_DIR;
const BATCHES = 20_000;
// Fixed ports of their own (4695-4697), apart from the other benches'.
const PORTS = { before: 4695, after: 4696, proxy: 4697 };
const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU time of a process and its descendants so far, in ms. */
function treeCpuMs(pid: number): number {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // after "pid (comm) ": state ppid ... utime (14th field) stime (15th), counted from state as 0
      stats.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // ended while we looked
    }
  }
  let total = 0;
  const walk = (p: number) => {
    total += stats.get(p)?.ticks ?? 0;
    for (const [child, s] of stats) if (s.ppid === p) walk(child);
  };
  walk(pid);
  return total * TICK_MS;
}

/**
 * Waits until the app is idle (under 10% of a core over half a second, at most 30 s): the app opens PGlite and
 * runs migrations in the background after it answers HTTP (instrumentation.ts), seconds of CPU that would
 * otherwise land in whichever measurement comes first.
 */
async function settled(pid: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const before = treeCpuMs(pid);
    await new Promise((r) => setTimeout(r, 500));
    if (treeCpuMs(pid) - before < 50) return;
  }
}

type Side = { name: string; app: BenchApp; cookie: string };

/** One whole range through the stream; the app's CPU and the wall time it took. */
async function streamOnce(side: Side): Promise<{ cpuMs: number; wallMs: number }> {
  const cpu0 = treeCpuMs(side.app.pid);
  const started = performance.now();
  const response = await fetch(`${side.app.url}/api/batches/stream`, {
    headers: { cookie: side.cookie, 'accept-encoding': 'gzip' },
  });
  if (response.status !== 200) throw new Error(`${side.name} stream: ${response.status}`);
  const text = await response.text();
  const wallMs = performance.now() - started;
  const lines = text.split('\n').filter(Boolean).map(parseStreamLine);
  const last = lines.at(-1);
  const count = lines.reduce((n, line) => n + ('batches' in line ? line.batches.length : 0), 0);
  if (!last || !('done' in last) || last.count !== BATCHES || count !== BATCHES)
    throw new Error(`${side.name} stream: ${count} batches, last line ${JSON.stringify(last)?.slice(0, 200)}`);
  // Let the last writes and the GC they caused land before reading the clock of the process.
  await new Promise((r) => setTimeout(r, 300));
  return { cpuMs: treeCpuMs(side.app.pid) - cpu0, wallMs };
}

async function capacity(url: string, cookie: string | undefined, seconds: number): Promise<number> {
  const headers: Record<string, string> = { 'accept-encoding': 'identity', ...(cookie ? { cookie } : {}) };
  const result = await autocannon({
    url: `${url}/api/batches`,
    headers,
    connections: 50,
    duration: seconds,
    timeout: 10,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${url} under load: ${bad} failed requests`);
  return result.requests.total / result.duration;
}

export async function run(): Promise<BenchResult[]> {
  const sandbox = await startBenchSandbox({ batches: BATCHES, pageSize: 100, latencyMs: 0, seed: 'bench' });
  const apps: BenchApp[] = [];
  try {
    const sides: Side[] = [];
    const dirs = BEFORE_DIR
      ? ([
          ['before', BEFORE_DIR],
          ['after', undefined],
        ] as const)
      : ([['after', undefined]] as const);
    for (const [name, dir] of dirs) {
      const app = await startBenchApp({
        port: PORTS[name],
        sandboxUrl: sandbox.url,
        dir,
        env: { SIGNIN_ATTEMPTS_PER_IP: '100000' },
      });
      apps.push(app);
      sides.push({ name, app, cookie: await signIn(app.url) });
    }
    const proxy = await startMinimalProxy({ port: PORTS.proxy, sandboxUrl: sandbox.url });
    apps.push(proxy);

    for (const side of sides) await settled(side.app.pid);
    for (const side of sides) await streamOnce(side); // warm-up: JIT, sockets, token
    const cpu = new Map<string, number[]>(sides.map((s) => [s.name, []]));
    const wall = new Map<string, number[]>(sides.map((s) => [s.name, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const side of i % 2 ? [...sides].reverse() : sides) {
        const one = await streamOnce(side);
        cpu.get(side.name)!.push(one.cpuMs);
        wall.get(side.name)!.push(one.wallMs);
      }
    }

    const rps = new Map<string, number[]>([...sides.map((s) => [s.name, []] as [string, number[]]), ['proxy', []]]);
    const proxyCookie = sides[0]!.cookie;
    for (const side of sides) await capacity(side.app.url, side.cookie, 2); // warm-up
    await capacity(proxy.url, proxyCookie, 2);
    for (let i = 0; i < 2; i++) {
      for (const side of sides) rps.get(side.name)!.push(await capacity(side.app.url, side.cookie, LOAD_S));
      rps.get('proxy')!.push(await capacity(proxy.url, proxyCookie, LOAD_S));
    }

    const results: BenchResult[] = [];
    const m = (map: Map<string, number[]>, name: string) => median(map.get(name)!);
    const after = { cpu: m(cpu, 'after'), wall: m(wall, 'after'), rps: m(rps, 'after') };
    const proxyRps = m(rps, 'proxy');
    if (BEFORE_DIR) {
      const before = { cpu: m(cpu, 'before'), wall: m(wall, 'before'), rps: m(rps, 'before') };
      results.push({
        target: 'issue 16 app CPU per 20,000-batch stream',
        figure: `${after.cpu.toFixed(0)} ms vs ${before.cpu.toFixed(0)} ms before (${(after.cpu / before.cpu).toFixed(2)}×)`,
        goal: 'lower',
        ok: after.cpu < before.cpu,
        detail:
          `app process tree utime+stime, median of ${RUNS} interleaved runs; wall ${after.wall.toFixed(0)} vs ${before.wall.toFixed(0)} ms; ` +
          `before: ${BEFORE_DIR}; sandbox 0 ms latency, pages of 100, gzip`,
      });
      results.push({
        target: 'issue 16 /api/batches req/s (50 connections)',
        figure: `${after.rps.toFixed(0)} vs ${before.rps.toFixed(0)} req/s before (${(after.rps / before.rps).toFixed(2)}×)`,
        goal: 'higher',
        ok: after.rps > before.rps,
        detail: `autocannon ${LOAD_S} s per side, two rounds, median; one page of 100, accept-encoding identity`,
      });
    } else {
      results.push({
        target: 'issue 16 app CPU per 20,000-batch stream',
        figure: `${after.cpu.toFixed(0)} ms (wall ${after.wall.toFixed(0)} ms)`,
        goal: '-',
        ok: true,
        detail: `median of ${RUNS}; set BENCH_BEFORE_DIR to a built checkout for a side-by-side comparison`,
      });
    }
    results.push({
      target: 'issue 16 (6) /api/batches against a minimal node:http proxy',
      figure: `${(after.rps / proxyRps).toFixed(2)}× (${after.rps.toFixed(0)} vs ${proxyRps.toFixed(0)} req/s)`,
      goal: '≥ 0.5×',
      ok: after.rps / proxyRps >= 0.5,
      detail: `autocannon ${LOAD_S} s per side, two rounds, median, 50 connections; sandbox 0 ms latency`,
    });
    return results;
  } finally {
    for (const app of apps) await app.stop();
    await sandbox.close();
  }
}

runDirectly(import.meta.url, 'app-cpu', 'Issue 16: the app CPU, side by side', run);
