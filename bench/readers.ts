/**
 * Issue 6, load: 50 signed-in readers, each with its own session, page through the batches through the
 * built app for 30 s, twice. Reports errors, latency percentiles, the app's RSS after each round (flat
 * means no growth from one round to the next), and how many tokens the service granted while reading
 * (single-flight: about one per token lifetime, however many readers).
 */
import { runDirectly } from './support/main';
import { rssBytes } from './support/memory';
import { signIn, startBenchApp, startBenchSandbox, startMinimalProxy } from './support/stack';
import { fmtBytes, fmtMs, median, percentile, type BenchResult } from './support/stats';

const READERS = Number(process.env.BENCH_READERS ?? 50);
const ROUND_S = Number(process.env.BENCH_READERS_S ?? 30);
const TOKEN_TTL_S = 10;
const APP_PORT = 4654;
const PROXY_PORT = 4690;

type Round = { latencies: number[]; errors: number; requests: number };

async function round(appUrl: string, cookies: string[]): Promise<Round> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = Date.now() + ROUND_S * 1000;
  await Promise.all(
    cookies.map(async (cookie, reader) => {
      let cursor: string | null = null;
      // Each reader walks its own year, page after page, starting over at the end; bounded by the deadline.
      const year = 2025 + (reader % 2);
      while (Date.now() < deadline) {
        const params = new URLSearchParams({
          start_date: `${year}-01-01T00:00:00Z`,
          end_date: `${year}-12-31T23:59:59Z`,
        });
        if (cursor) params.set('cursor', cursor);
        const started = performance.now();
        try {
          // Uncompressed, as autocannon asks in bench/proxy.ts: the minimal proxy pipes the service's bytes, and
          // gzip would measure compression, not the proxying.
          const response = await fetch(`${appUrl}/api/batches?${params}`, {
            headers: { cookie, 'accept-encoding': 'identity' },
            signal: AbortSignal.timeout(10_000),
          });
          // The app answers `nextCursor`; the minimal proxy pipes the service's `next_token`.
          const body = (await response.json()) as { nextCursor?: string | null; next_token?: string | null };
          latencies.push(performance.now() - started);
          if (response.status !== 200) errors++;
          cursor = body.nextCursor ?? body.next_token ?? null;
        } catch {
          errors++;
          cursor = null;
        }
      }
    }),
  );
  return { latencies, errors, requests: latencies.length + errors };
}

export async function run(): Promise<BenchResult[]> {
  const sandbox = await startBenchSandbox({
    batches: 20_000,
    pageSize: 100,
    latencyMs: 20,
    tokenTtlS: TOKEN_TTL_S,
    seed: 'bench',
  });
  const app = await startBenchApp({
    port: APP_PORT,
    sandboxUrl: sandbox.url,
    env: { SIGNIN_ATTEMPTS_PER_IP: '100000' },
  });
  const proxy = await startMinimalProxy({ port: PROXY_PORT, sandboxUrl: sandbox.url });
  try {
    const cookies: string[] = [];
    for (let i = 0; i < READERS; i++) cookies.push(await signIn(app.url));
    await round(app.url, cookies.slice(0, 5)); // warm-up (compiled routes, connections)
    const baseline = rssBytes(app.pid);
    sandbox.resetStats();
    const started = Date.now();
    const first = await round(app.url, cookies);
    const afterFirst = rssBytes(app.pid);
    const second = await round(app.url, cookies);
    const elapsedS = (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 3000));
    const afterSecond = rssBytes(app.pid);
    const grants = Object.values(sandbox.stats.tokensIssuedByOrg).reduce((a, b) => a + b, 0);
    // The yardstick: the same readers, the same cookies, against the minimal node:http proxy (after a warm-up).
    await round(proxy.url, cookies.slice(0, 5));
    const bare = await round(proxy.url, cookies);
    const appRate = (first.requests + second.requests) / (2 * ROUND_S);
    const bareRate = bare.requests / ROUND_S;
    // The client renews a token at the latest 5 s before it expires (at half its life for short ones).
    const renewEveryS = Math.max(TOKEN_TTL_S - 5, TOKEN_TTL_S / 2);
    const allowed = Math.ceil(elapsedS / renewEveryS) + 1;
    const latencies = [...first.latencies, ...second.latencies];
    const errors = first.errors + second.errors;
    const growth = afterSecond - afterFirst;
    return [
      {
        target: `load: ${READERS} signed-in readers, 2 × ${ROUND_S} s`,
        figure: `${errors} errors in ${first.requests + second.requests} requests; p50 ${fmtMs(median(latencies))}, p99 ${fmtMs(percentile(latencies, 99))}`,
        goal: 'no errors, p99 reported',
        ok: errors === 0,
        detail: `sandbox 20,000 batches, 20 ms per request; ${((first.requests + second.requests) / elapsedS).toFixed(0)} req/s`,
      },
      {
        target: `16.6 capacity: ${READERS} readers, the app vs a minimal node:http proxy`,
        figure: `${(appRate / bareRate).toFixed(2)}× (${appRate.toFixed(0)} vs ${bareRate.toFixed(0)} req/s)`,
        goal: '≥ 0.5×',
        ok: appRate / bareRate >= 0.5 && bare.errors === 0,
        detail:
          `the proxy (bench/support/minimal-proxy.mjs): the same session check and upstream call, the service's answer piped; ` +
          `p50/p99 ${fmtMs(median(bare.latencies))}/${fmtMs(percentile(bare.latencies, 99))}, ${bare.errors} errors, one ${ROUND_S} s round`,
      },
      {
        target: 'load: app memory from one round to the next',
        figure: `${growth >= 0 ? '+' : ''}${fmtBytes(growth)} (RSS ${fmtBytes(baseline)} warm, ${fmtBytes(afterFirst)} after round 1, ${fmtBytes(afterSecond)} after round 2)`,
        goal: 'flat (< 32 MB growth)',
        ok: growth < 32 * 2 ** 20,
      },
      {
        target: 'load: tokens granted while reading (one organisation)',
        figure: `${grants} in ${elapsedS.toFixed(0)} s, token lifetime ${TOKEN_TTL_S} s`,
        goal: `≤ ${allowed} (one per renewal)`,
        ok: grants <= allowed,
      },
    ];
  } finally {
    await proxy.stop();
    await app.stop();
    await sandbox.close();
  }
}

runDirectly(import.meta.url, 'readers', 'Issue 6: 50 concurrent readers', run);
