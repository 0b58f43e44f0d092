import 'server-only';
import { createAlertChannels } from '../notify/channels';
import type { AlertChannels } from './message';

/**
 * The channels the watcher sends through: the real e-mail and webhook channels (lib/server/notify/), or,
 * in a test, a recording set of its own.
 */
const holder = globalThis as unknown as { __alertChannels?: AlertChannels };

/** The channels in use: those set, else the real ones (made once). */
export function alertChannels(): AlertChannels {
  holder.__alertChannels ??= createAlertChannels();
  return holder.__alertChannels;
}

/** Uses these channels from now on (null: back to the real ones). */
export function useAlertChannels(channels: AlertChannels | null): void {
  holder.__alertChannels = channels ?? undefined;
}
