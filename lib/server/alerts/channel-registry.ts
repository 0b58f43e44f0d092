import 'server-only';
import type { AlertChannels } from './message';

/**
 * The channels the watcher sends through (lib/server/notify/ makes the real ones). Set once at start-up, or
 * by a test with a recording set of its own; until set, every delivery fails with this and is retried.
 */
const holder = globalThis as unknown as { __alertChannels?: AlertChannels; __alertChannelsFactory?: () => AlertChannels };

const unset: AlertChannels = {
  email: () => Promise.reject(new Error('no e-mail channel is set up on this instance')),
  webhook: () => Promise.reject(new Error('no webhook channel is set up on this instance')),
};

/** The channels in use: those set, else those the default factory makes (made once), else none. */
export function alertChannels(): AlertChannels {
  holder.__alertChannels ??= holder.__alertChannelsFactory?.();
  return holder.__alertChannels ?? unset;
}

/** Uses these channels from now on (null: back to the default). */
export function useAlertChannels(channels: AlertChannels | null): void {
  holder.__alertChannels = channels ?? undefined;
}

/** What makes the default channels when none were set: the real e-mail and webhook channels. */
export function defaultAlertChannels(factory: () => AlertChannels): void {
  holder.__alertChannelsFactory = factory;
}
