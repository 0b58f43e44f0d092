/** `npm run sandbox`: the emulated Batch Data Service on its own, configured by SANDBOX_* variables. */
import { loadEnvFiles } from '../lib/env-files';
import { sandboxConfigFromEnv } from './config';
import { DEMO_CREDENTIALS, OTHER_CREDENTIALS } from './organisations';
import { startSandbox } from './server';

async function main() {
  // The sandbox is a development tool, never production: it reads the files `next dev` reads.
  loadEnvFiles('development');
  const started = Date.now();
  const sandbox = await startSandbox(sandboxConfigFromEnv());
  const total = sandbox.organisations.reduce((n, o) => n + o.batches.length, 0);
  console.log(`Batch Data Service sandbox listening on ${sandbox.url}`);
  console.log(
    `  ${total.toLocaleString('en')} batches generated in ${Date.now() - started} ms (seed "${sandbox.config.seed}")`,
  );
  console.log(`  demo credentials:  ${DEMO_CREDENTIALS.clientId} / ${DEMO_CREDENTIALS.clientSecret}`);
  console.log(`  second organisation: ${OTHER_CREDENTIALS.clientId} / ${OTHER_CREDENTIALS.clientSecret}`);
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
