export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { underCustomServer } = await import('./lib/server/routing/custom-server');
  // The production server (server/main.ts) passes the socket's address and refuses what Next cannot route in
  // its own request handler; `next dev` and a bare `next start` need hooks for both. First: every request from
  // now on carries its socket's address (the sign-in limits count by it).
  if (!underCustomServer()) {
    const { installPeerAddressHook } = await import('./lib/server/http/peer-address');
    installPeerAddressHook();
  }
  // And its query exactly as sent: Next.js loses some parameter names (`__proto__`) before a route sees it.
  const { installRawQueryHook } = await import('./lib/server/input/raw-query');
  installRawQueryHook();
  const { validateConfigOrExit } = await import('./lib/server/config/startup');
  validateConfigOrExit();
  if (!underCustomServer()) {
    const { answerUnroutableMethods } = await import('./lib/server/http/unroutable-methods');
    answerUnroutableMethods();
  }
  // Migrations at start-up (and PGlite's first start out of the first request's way). Never while building:
  // the build must not open, let alone create, the data directory.
  if (process.env.NEXT_PHASE !== 'phase-production-build') {
    const { settingsStore } = await import('./lib/server/settings');
    const { whenProvisioned } = await import('./lib/server/org/provisioning');
    const { getConfig } = await import('./lib/server/config');
    const { countActiveSessionsWith } = await import('./lib/server/metrics/sign-ins');
    countActiveSessionsWith(() => settingsStore().sessions.countLive(Date.now(), getConfig().sessionIdleS));
    // Then what the deployment names and the database lacks (organisations, people): requests wait for it.
    void settingsStore()
      .warm()
      .then((ready) => (ready ? whenProvisioned() : undefined))
      .catch(() => undefined)
      // The alert watcher and the saved views' scheduled reports on the job runner (pg-boss), once the database is migrated.
      .then(async () => {
        (await import('./lib/server/alerts/start')).startAlerts();
        const [{ jobRunner }, { keepReportSchedules }] = await Promise.all([
          import('./lib/server/jobs'),
          import('./lib/server/reports/report-runner'),
        ]);
        keepReportSchedules(jobRunner);
      });
  }
}
