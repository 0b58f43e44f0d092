import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printResults, saveResults, type BenchResult } from './stats';

/** True when the module at `moduleUrl` is the script node was started with (not imported by bench/run.ts). */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/** `tsx bench/x.ts`: runs one bench, prints and saves its table; exit code 1 when it could not run. */
export function runDirectly(moduleUrl: string, name: string, title: string, run: () => Promise<BenchResult[]>) {
  if (!isMain(moduleUrl)) return;
  run()
    .then((results) => {
      printResults(title, results);
      saveResults(name, results);
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
