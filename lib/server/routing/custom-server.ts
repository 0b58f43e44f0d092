const holder = globalThis as unknown as { __customServer?: boolean };

/**
 * Set by the production server (server/main.ts) before Next starts: it then answers the methods Next cannot
 * route and passes the socket's address itself, and instrumentation.ts installs no hooks for either.
 */
export function markCustomServer(): void {
  holder.__customServer = true;
}

export function underCustomServer(): boolean {
  return holder.__customServer === true;
}
