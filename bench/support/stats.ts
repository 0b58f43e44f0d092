/** Numbers and how a bench prints them: every target's figure next to its goal, PASS or MISS. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type BenchResult = {
  /** e.g. "4a proxy overhead (concurrency 1)" */
  target: string;
  /** what was measured, e.g. "+0.9 ms (median 2.1 ms vs 1.2 ms direct)" */
  figure: string;
  /** e.g. "≤ 5 ms" */
  goal: string;
  ok: boolean;
  /** run conditions and anything a reader needs to trust the figure */
  detail?: string;
};

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

function sorted(xs: readonly number[]): number[] {
  if (xs.length === 0) throw new Error('no samples');
  return [...xs].sort((a, b) => a - b);
}

/** Median (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  const s = sorted(xs);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Percentile p in [0, 100], linear interpolation between the closest ranks. */
export function percentile(xs: readonly number[], p: number): number {
  const s = sorted(xs);
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return s[lo]! + (s[hi]! - s[lo]!) * (rank - lo);
}

export function fmtMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(ms >= 10 ? 1 : 2)} ms`;
}

export function fmtBytes(bytes: number): string {
  if (Math.abs(bytes) >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024).toFixed(1)} kB`;
}

export function printResults(title: string, results: readonly BenchResult[]) {
  const rows = results.map((r) => [r.target, r.figure, r.goal, r.ok ? 'PASS' : 'MISS']);
  const head = ['target', 'figure', 'goal', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  console.log(`\n== ${title} ==`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const [i, r] of results.entries()) {
    console.log(line(rows[i]!));
    if (r.detail) console.log(`    ${r.detail}`);
  }
}

/** Writes bench/results/NAME.json (git-ignored) with the figures and when they were taken. */
export function saveResults(name: string, results: readonly BenchResult[]): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ name, takenAt: new Date().toISOString(), node: process.version, results }, null, 2) + '\n',
  );
  return file;
}
