/**
 * Builds the production server (server/main.ts) into one file, `.next/app-server.js`, after `next build`:
 * `npm start` then runs it with node alone. Packages stay external (node_modules at run time, as for Next);
 * `server-only` is its empty server build, as in React Server Components.
 */
import { build } from 'esbuild';

await build({
  entryPoints: ['server/main.ts'],
  outfile: '.next/app-server.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  alias: { 'server-only': './node_modules/server-only/empty.js' },
  logLevel: 'warning',
});
