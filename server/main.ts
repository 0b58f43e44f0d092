/**
 * The production server: `npm start`, the demo, and a service unit, which should run it as
 * `node .next/app-server.js` (built by `npm run build`), without npm in between: npm prints a banner of its
 * own. It creates the HTTP server, hands each request to Next (server/handle-request.ts), listens where HOST
 * and PORT say, serves /metrics on METRICS_PORT (loopback), and drains on SIGTERM.
 */
import { createServer, type Server } from 'node:http';
import { isIP } from 'node:net';
import { loadEnvFiles } from '../lib/env-files';
import { getConfig } from '../lib/server/config';
import { endGrace, isDraining, startDraining } from '../lib/server/health/shutdown';
import { logConsoleAsJson } from '../lib/server/logging/console';
import { log } from '../lib/server/logging/logger';
import { metricsAnswer } from '../lib/server/metrics/endpoint';
import { closeSharedRedis } from '../lib/server/stores/redis-connection';
import { markCustomServer } from '../lib/server/routing/custom-server';
import { closeSettingsStore } from '../lib/server/settings';
import { validateConfigOrExit } from '../lib/server/config/startup';
import { startTracing, stopTracing } from '../lib/server/tracing/setup';
import { createRequestHandler } from './handle-request';
import { readManifest, routeMatcher } from './route-templates';

/** After the grace period, how long the streams get to write their last line before the sockets are closed. */
const LAST_LINE_MS = 2000;
/** Whatever hangs at the very end (a trace exporter that cannot reach its collector) is cut off after this. */
const EXIT_BACKSTOP_MS = 10_000;

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^(::ffff:)?127\./.test(host);

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const urlOf = (host: string, port: number) => `http://${isIP(host) === 6 ? `[${host}]` : host}:${port}`;

/** Prometheus's scrapes on loopback, without a token: nothing but GET /metrics, and no log line each. */
function metricsServer(): Server {
  return createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    void metricsAnswer(undefined, undefined).then((answer) =>
      res.writeHead(answer.status, answer.headers).end(answer.body),
    );
  });
}

async function main(): Promise<void> {
  (process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';
  logConsoleAsJson();
  // The .env files first, as `next start` reads them: HOST, PORT and the rest may come from there.
  loadEnvFiles('production');
  markCustomServer();
  validateConfigOrExit();
  const { server: settings, trustedProxyHops } = getConfig();
  startTracing();

  const dir = process.cwd();
  const { default: next } = await import('next');
  const app = next({ dev: false, dir, hostname: settings.host, port: settings.port });
  await app.prepare();
  const requests = createRequestHandler({
    next: app.getRequestHandler(),
    routeOf: routeMatcher(readManifest(dir), settings.metricsToken ? ['/metrics'] : []),
    metricsToken: settings.metricsToken,
  });
  const server = createServer(requests.handle);
  await listen(server, settings.port, settings.host);
  log('info', 'listening', { url: urlOf(settings.host, settings.port) });
  if (!isLoopback(settings.host) && trustedProxyHops > 0) {
    log(
      'warn',
      'listening beyond loopback with TRUSTED_PROXY_HOPS > 0: a client that reaches the app around the proxy chooses its own address for the sign-in limits; let only the proxy reach it',
      {
        host: settings.host,
        trustedProxyHops,
      },
    );
  }
  let metrics: Server | undefined;
  if (settings.metricsPort !== undefined) {
    metrics = metricsServer();
    await listen(metrics, settings.metricsPort, '127.0.0.1');
    log('info', 'metrics listening', { url: `${urlOf('127.0.0.1', settings.metricsPort)}/metrics` });
  }

  /**
   * SIGTERM: readiness turns 503 and new requests are refused with 503 and Retry-After at once; the requests
   * running get SHUTDOWN_GRACE_S to finish, then the streams among them end with the line the browser resumes
   * from; then the connections close, the database writes out, and the process exits. A second signal ends
   * the grace period at once.
   */
  const shutdown = async (signal: string) => {
    if (isDraining()) {
      endGrace();
      return;
    }
    startDraining();
    log('info', 'draining: readiness answers 503 and new requests are refused', {
      signal,
      running: requests.inProgress(),
      graceS: settings.shutdownGraceS,
    });
    const done = await Promise.race([
      requests.idle().then(() => true),
      delay(settings.shutdownGraceS * 1000).then(() => false),
    ]);
    if (!done) {
      log('warn', 'grace period over: ending the requests still running', { running: requests.inProgress() });
      endGrace();
      await Promise.race([requests.idle(), delay(LAST_LINE_MS)]);
    }
    setTimeout(() => process.exit(0), EXIT_BACKSTOP_MS).unref();
    server.close();
    server.closeAllConnections();
    metrics?.close();
    await Promise.allSettled([closeSettingsStore(), closeSharedRedis(), stopTracing()]);
    log('info', 'stopped');
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(signal));
}

main().catch((error: unknown) => {
  log('fatal', 'the server did not start', { error: String(error) });
  process.exit(1);
});
