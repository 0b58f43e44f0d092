export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First: every request from now on carries its socket's address (the sign-in limits count by it).
  const { installPeerAddressHook } = await import('./lib/server/peer-address');
  installPeerAddressHook();
  const { validateConfigOrExit } = await import('./lib/server/startup');
  validateConfigOrExit();
  const { answerUnroutableMethods } = await import('./lib/server/unroutable-methods');
  answerUnroutableMethods();
  // Migrations at start-up (and PGlite's first start out of the first request's way). Never while building:
  // the build must not open, let alone create, the data directory.
  if (process.env.NEXT_PHASE !== 'phase-production-build') {
    const { settingsStore } = await import('./lib/server/settings');
    const { whenProvisioned } = await import('./lib/server/org/provisioning');
    // Then what the deployment names and the database lacks (organisations, people): requests wait for it.
    void settingsStore()
      .warm()
      .then((ready) => (ready ? whenProvisioned() : undefined))
      .catch(() => undefined);
  }
}
