import { loadEnvConfig } from '@next/env';

/**
 * Loads `.env.$(NODE_ENV).local`, `.env.local`, `.env.$(NODE_ENV)` and `.env` into process.env with Next's own
 * loader, so the launcher and the sandbox see the same values `next dev` / `next start` would: variables
 * already set in the environment win, and the project directory is the working directory, as for Next
 * (npm scripts run from the repository root).
 *
 * Returns the environment as it was before, for child processes that load the files themselves: a
 * `next dev` started with it still picks up an edited `.env.local`, which it would not do if the values
 * arrived as ordinary environment variables.
 */
export function loadEnvFiles(mode: 'development' | 'production'): NodeJS.ProcessEnv {
  const before = { ...process.env };
  // A quiet logger: Next prints the files it loaded in its own banner; errors still reach stderr.
  loadEnvConfig(process.cwd(), mode === 'development', { info: () => {}, error: console.error });
  return before;
}
