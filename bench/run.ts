/**
 * `npm run bench` (after `npm run build`): every bench of issue 5, one after another, each table printed as it
 * finishes, then one summary. A bench that throws is reported and the others still run.
 */
import { printResults, saveResults, type BenchResult } from './support/stats';

type Bench = { name: string; title: string; load: () => Promise<{ run: () => Promise<BenchResult[]> }> };

// The list of benches, in the order they run. Add a bench here: it exports `run(): Promise<BenchResult[]>`.
const BENCHES: Bench[] = [
  { name: 'load', title: 'Issue 16 target 1: loading a large range', load: () => import('./load') },
  { name: 'interaction', title: 'Target 3: 100,000 batches in the browser', load: () => import('./interaction') },
  { name: 'analysis', title: 'Issue 10: analysis with 100,000 batches', load: () => import('./analysis') },
  { name: 'million', title: 'Issue 16.4: a million batches in the browser', load: () => import('./million') },
  { name: 'proxy', title: 'Target 4: proxy overhead', load: () => import('./proxy') },
  { name: 'export', title: 'Issue 16 target 3: parallel export', load: () => import('./export') },
  { name: 'xlsx-export', title: 'Issue 11: Excel export', load: () => import('./xlsx-export') },
  { name: 'bundle', title: 'Issue 16 target 5: JavaScript for /batches', load: () => import('./bundle') },
  { name: 'lighthouse', title: 'Issue 16 target 5: Lighthouse', load: () => import('./lighthouse') },
  { name: 'readers', title: 'Issue 16 target 6: 50 readers, one instance', load: () => import('./readers') },
  { name: 'reopen', title: 'Issue 16 target 2: reopening from the cache', load: () => import('./reopen') },
  { name: 'bff-cpu', title: 'Issue 16: the BFF CPU per upstream page', load: () => import('./bff-cpu') },
  { name: 'app-cpu', title: 'Issue 16: the app CPU, side by side', load: () => import('./app-cpu') },
  { name: 'rate-limit', title: 'Issue 8: a range load under a rate limit', load: () => import('./rate-limit') },
];

async function main() {
  const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
  const all: BenchResult[] = [];
  let crashed = 0;
  for (const bench of BENCHES) {
    if (only && !only.includes(bench.name)) continue;
    const started = Date.now();
    let results: BenchResult[];
    try {
      results = await (await bench.load()).run();
    } catch (error) {
      crashed++;
      console.error(`\n[bench ${bench.name}] failed:`, error);
      results = [
        { target: bench.name, figure: 'did not run', goal: '-', ok: false, detail: String(error).slice(0, 300) },
      ];
    }
    printResults(`${bench.title} (${((Date.now() - started) / 1000).toFixed(0)} s)`, results);
    saveResults(bench.name, results);
    all.push(...results);
  }
  printResults('Summary: every target', all);
  saveResults('summary', all);
  const missed = all.filter((r) => !r.ok).length;
  console.log(
    `\n${all.length - missed} of ${all.length} goals met${crashed ? `; ${crashed} bench(es) could not run` : ''}`,
  );
  // Missed goals are figures to act on, not failures; a bench that could not run is.
  process.exit(crashed ? 1 : 0);
}

void main();
