/**
 * The BFF's CPU per upstream page, step by step, in this process (issue 16: targets 1, 3, 4 and 6 are bound by
 * the app's one thread): 20,000 batches as 200 service pages of 100, each step done the way main did it and the
 * way it is done now, interleaved round by round, medians. No servers; a few seconds.
 *
 * - read: the upstream body from a Buffer to text (a Response's `text()` against decoding the buffer);
 * - check: JSON text of a page to a checked BatchPage (zod's BatchPageSchema against the hand-written fast path);
 * - line: the stream's NDJSON line as bytes (unchanged, for scale).
 *
 * `BENCH_CPU_ROUNDS` (default 15) rounds.
 */
import { BatchPageSchema } from '../lib/batch-api/schemas';
import { checkBatchPage } from '../lib/batch-api/fast-batch';
import { utf8Decode } from '../lib/batch-api/keep-alive-fetch';
import { encodeStreamLine } from '../lib/contract/stream';
import { generateBatches } from '../sandbox/data/generate';
import { runDirectly } from './support/main';
import { median, type BenchResult } from './support/stats';

const ROUNDS = Number(process.env.BENCH_CPU_ROUNDS ?? 15);
const BATCHES = 20_000;
const PAGE = 100;

async function timeAsync(work: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export async function run(): Promise<BenchResult[]> {
  const batches = generateBatches({
    seed: 'bench-cpu',
    count: BATCHES,
    anchorMs: Date.UTC(2026, 0, 1),
    scanners: ['ana@example.com', 'ben@example.com'],
    reportBaseUrl: 'https://reports.example/analysis',
  });
  const pages: string[] = [];
  for (let i = 0; i < BATCHES; i += PAGE) {
    pages.push(JSON.stringify({ data: batches.slice(i, i + PAGE), next_token: i + PAGE < BATCHES ? `c${i}` : null }));
  }
  const bodies = pages.map((text) => Buffer.from(text));
  const parsed = pages.map((text) => checkBatchPage(JSON.parse(text))!);
  const encoder = new TextEncoder();

  const steps = {
    'read (Response.text)': async () => {
      for (const body of bodies) await new Response(body).text();
    },
    'read (decode the buffer)': async () => {
      for (const body of bodies) utf8Decode(body);
    },
    'check (zod)': async () => {
      for (const text of pages) BatchPageSchema.parse(JSON.parse(text));
    },
    'check (fast path)': async () => {
      for (const text of pages) checkBatchPage(JSON.parse(text));
    },
    'line (stringify + TextEncoder)': async () => {
      for (const page of parsed) encoder.encode(encodeStreamLine({ batches: page.data, pending: '0-1' }));
    },
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(steps).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS + 2; round++) {
    for (const [name, work] of Object.entries(steps)) {
      const ms = await timeAsync(work);
      if (round >= 2) samples[name]!.push(ms); // two rounds of warm-up (JIT)
    }
  }
  const m = (name: string) => median(samples[name]!);
  const pair = (target: string, before: string, after: string): BenchResult => ({
    target,
    figure: `${m(after).toFixed(1)} ms vs ${m(before).toFixed(1)} ms (${(m(after) / m(before)).toFixed(2)}×)`,
    goal: 'lower',
    ok: m(after) < m(before),
    detail: `${after} against ${before}, per ${BATCHES.toLocaleString('en')} batches (${pages.length} pages), median of ${ROUNDS} interleaved rounds`,
  });
  const before = m('read (Response.text)') + m('check (zod)');
  const after = m('read (decode the buffer)') + m('check (fast path)');
  return [
    pair('issue 16 BFF CPU: reading a body', 'read (Response.text)', 'read (decode the buffer)'),
    pair('issue 16 BFF CPU: JSON + checking a page', 'check (zod)', 'check (fast path)'),
    {
      target: 'issue 16 BFF CPU: stream lines (unchanged)',
      figure: `${m('line (stringify + TextEncoder)').toFixed(1)} ms`,
      goal: '-',
      ok: true,
      detail:
        'JSON.stringify + TextEncoder of the lines of 20,000 batches, for scale (Buffer.from measured the same: left as it was)',
    },
    {
      target: 'issue 16 BFF CPU: reading and checking together',
      figure: `${after.toFixed(0)} ms vs ${before.toFixed(0)} ms per ${BATCHES.toLocaleString('en')} batches (${(after / before).toFixed(2)}×)`,
      goal: 'lower',
      ok: after < before,
      detail: 'sum of the medians above; the rest of the app CPU (HTTP, gzip, GC, Next) is not in this bench',
    },
  ];
}

runDirectly(import.meta.url, 'bff-cpu', 'Issue 16: the BFF CPU per upstream page', run);
