import { getConfig } from '.';

/** Called once at server start (instrumentation.ts): a bad configuration stops the server, naming the variable. */
export function validateConfigOrExit() {
  try {
    getConfig();
  } catch (error) {
    console.error(`\n  ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
