/**
 * Builds, after `next build`, the production server (server/main.ts) into `.next/app-server.js` and the
 * database scripts (scripts/db/cli.ts) into `.next/db-cli.js`: `npm start` and `npm run db:*` then run with
 * node alone. Packages stay external (node_modules at run time, as for Next); `server-only` is its empty
 * server build, as in React Server Components.
 */
import { build } from 'esbuild';

const entries = { 'server/main.ts': '.next/app-server.js', 'scripts/db/cli.ts': '.next/db-cli.js' };
for (const [entry, outfile] of Object.entries(entries)) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    alias: { 'server-only': './node_modules/server-only/empty.js' },
    logLevel: 'warning',
  });
}
