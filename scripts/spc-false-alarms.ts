/**
 * Prints the control charts' false-alarm table (lib/explorer/control/false-alarms.ts, TABLE): for each baseline
 * size, the false alarms of each rule set averaged over RUNS simulated baselines. Run it after changing the
 * method and paste its output over TABLE: `npx tsx scripts/spc-false-alarms.ts` (about a minute).
 */
import { RUNS, simulateFalseAlarms } from '../lib/explorer/control/false-alarms';

const SIZES = [10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 100, 150, 200, 300, 500, 1000, 2000];
const round = (v: number, places: number) => Number(v.toFixed(places));

for (const m of SIZES) {
  const limits = simulateFalseAlarms(m, 'limits', RUNS);
  const runs = simulateFalseAlarms(m, 'runs', RUNS);
  console.log(
    `  [${m}, ${round(limits.perHundred, 3)}, ${round(limits.inHundred, 3)}, ${round(runs.perHundred, 3)}, ${round(runs.inHundred, 3)}],`,
  );
}
