/**
 * Target 4, proxy overhead: `GET /api/batches` (one page of 100, signed-in cookie) against the sandbox's
 * `GET /v2/batches` for the same page (bearer token), sandbox at 0 ms latency, side by side in one run.
 *   a) concurrency 1: direct and proxied calls interleaved, medians and the added milliseconds;
 *   b) autocannon, 50 connections: throughput of each and the ratio, p99 latency.
 * Both sides are asked for `accept-encoding: identity` (as curl and autocannon do): the sandbox never
 * compresses, so a gzip answer would measure compression, not the proxy. The gzip figure is printed too.
 * A bare route of the app (401 from /api/session: no session, no upstream call) shows what Next.js itself
 * costs per request on this machine, the floor under any proxy figure.
 */
import autocannon from 'autocannon';
import { runDirectly } from './support/main';
import { freeBenchPort, sandboxToken, signIn, startBenchApp, startBenchSandbox } from './support/stack';
import { fmtMs, median, percentile, type BenchResult } from './support/stats';

const WARMUP = 100;
const SAMPLES = Number(process.env.BENCH_PROXY_SAMPLES ?? 400);
const LOAD_S = Number(process.env.BENCH_PROXY_LOAD_S ?? 10);
const CONNECTIONS = 50;
const TIME_BUDGET_MS = 120_000;

type Side = { name: string; url: string; headers: Record<string, string>; status: number };

async function timedGet(side: Side): Promise<number> {
  const started = performance.now();
  const response = await fetch(side.url, { headers: side.headers });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== side.status) throw new Error(`${side.name}: ${response.status}`);
  return elapsed;
}

/** Both sides must answer the same batches, or the comparison means nothing. */
async function samePage(direct: Side, proxied: Side) {
  const ids = async (side: Side) => {
    const body = (await (await fetch(side.url, { headers: side.headers })).json()) as { data: { batch_id: string }[] };
    return body.data.map((b) => b.batch_id).join();
  };
  const [a, b] = [await ids(direct), await ids(proxied)];
  if (a !== b || a.split(',').length !== 100)
    throw new Error('direct and proxied pages differ (or are not 100 batches)');
}

/** Round robin, the starting side rotating each round, so drift (GC, other load) hits every side alike. */
async function sequential(sides: Side[]): Promise<Map<string, number[]>> {
  const deadline = Date.now() + TIME_BUDGET_MS;
  const times = new Map(sides.map((s) => [s.name, [] as number[]]));
  for (let i = 0; i < WARMUP + SAMPLES && Date.now() < deadline; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(i + k) % sides.length]!;
      const ms = await timedGet(side);
      if (i >= WARMUP) times.get(side.name)!.push(ms);
    }
  }
  return times;
}

async function load(side: Side, seconds: number) {
  const result = await autocannon({
    url: side.url,
    headers: side.headers,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
  });
  const wrong =
    side.status === 200 ? result.non2xx : result['4xx'] === result.requests.total ? 0 : result.requests.total;
  if (wrong + result.errors + result.timeouts > 0) {
    throw new Error(
      `${side.name} under load: ${wrong} unexpected statuses, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return { rps: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99 };
}

export async function run(): Promise<BenchResult[]> {
  const sandbox = await startBenchSandbox({ latencyMs: 0, pageSize: 100 });
  const app = await startBenchApp({ port: await freeBenchPort(), sandboxUrl: sandbox.url }).catch(
    async (error: unknown) => {
      await sandbox.close();
      throw error;
    },
  );
  try {
    const identity = { 'accept-encoding': 'identity' };
    const cookie = await signIn(app.url);
    const direct: Side = {
      name: 'direct',
      url: `${sandbox.url}/v2/batches`,
      headers: { ...identity, authorization: `Bearer ${await sandboxToken(sandbox.url)}` },
      status: 200,
    };
    const proxied: Side = {
      name: 'proxied',
      url: `${app.url}/api/batches`,
      headers: { ...identity, cookie },
      status: 200,
    };
    const gzip: Side = { ...proxied, name: 'proxied-gzip', headers: { 'accept-encoding': 'gzip', cookie } };
    const bare: Side = { name: 'bare', url: `${app.url}/api/session`, headers: identity, status: 401 };
    await samePage(direct, proxied);

    const times = await sequential([direct, proxied, gzip, bare]);
    const med = (name: string) => median(times.get(name)!);
    const added = med('proxied') - med('direct');

    // A short run of each warms the JIT and the connection pools before the measured runs.
    for (const side of [direct, proxied, bare]) await load(side, 2);
    const directLoad = await load(direct, LOAD_S);
    const proxiedLoad = await load(proxied, LOAD_S);
    const bareLoad = await load(bare, LOAD_S);
    const ratio = proxiedLoad.rps / directLoad.rps;

    const n = times.get('direct')!.length;
    return [
      {
        target: '4a proxy overhead, concurrency 1 (median)',
        figure: `+${fmtMs(added)} (${fmtMs(med('proxied'))} proxied vs ${fmtMs(med('direct'))} direct)`,
        goal: '≤ +5 ms',
        ok: added <= 5,
        detail:
          `sandbox 3,000 batches, page of 100 (70 kB), latency 0 ms; ${n} calls per side after ${WARMUP} warm-up, interleaved; ` +
          `p90 ${fmtMs(percentile(times.get('proxied')!, 90))} vs ${fmtMs(percentile(times.get('direct')!, 90))}; ` +
          `gzip answer ${fmtMs(med('proxied-gzip'))}; bare app route (401, no upstream) ${fmtMs(med('bare'))}`,
      },
      {
        target: `4b throughput, ${CONNECTIONS} connections`,
        figure: `${ratio.toFixed(2)}× (${Math.round(proxiedLoad.rps)} vs ${Math.round(directLoad.rps)} req/s direct)`,
        // Retired by issue 16: a bare upstream is not what anyone would run instead. Its successor compares the app
        // with a minimal node:http proxy doing the same work (bench/readers.ts, target 16.6).
        goal: 'reported (0.60× retired)',
        ok: true,
        detail:
          `autocannon ${LOAD_S} s per side after 2 s warm-up; p50/p99 ${proxiedLoad.p50}/${proxiedLoad.p99} ms proxied, ` +
          `${directLoad.p50}/${directLoad.p99} ms direct; bare app route ${Math.round(bareLoad.rps)} req/s ` +
          `(${(bareLoad.rps / directLoad.rps).toFixed(2)}×, the ceiling); load generator and sandbox share this process, the app has its own`,
      },
    ];
  } finally {
    await app.stop();
    await sandbox.close();
  }
}

runDirectly(import.meta.url, 'proxy', 'Target 4: proxy overhead', run);
