// `npm run db:*`: the bundled maintenance script of the last build (see scripts/db/cli.ts).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const built = '.next/db-cli.js';
if (!existsSync(built)) {
  console.error('db: run `npm run build` first (the database scripts are built with the app)');
  process.exit(1);
}
const { status } = spawnSync(process.execPath, [built, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(status ?? 1);
