import 'server-only';
import { jobRunner } from '../jobs';
import { errorFields, logLine } from '../logging';
import { startWatching } from './watcher';

/** A start that failed (the database not there yet) is tried again after this long. */
const RETRY_MS = 30_000;

/** Starts the alert watcher on this instance's job runner, trying again until the database lets it. */
export function startAlerts(): void {
  startWatching(jobRunner()).catch((error: unknown) => {
    logLine('warn', 'alerts: the watcher did not start; trying again', {
      retry_s: RETRY_MS / 1000,
      ...errorFields(error),
    });
    setTimeout(startAlerts, RETRY_MS).unref();
  });
}
