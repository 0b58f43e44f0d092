import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pageOf, resolveRange } from './batches';
import { hostInUrl, parseSandboxOptions, publicUrlOf, type SandboxConfig, type SandboxOptions } from './config';
import { handleControl, type Edit } from './control';
import { CursorCodec } from './cursor';
import { Faults, type FaultKind } from './faults';
import { HttpError, readBody, sendError, sendJson, sendText, sleep, streamJsonArray } from './http';
import { buildOrganisations, organisationOf, type Organisation } from './organisations';
import { REPORTS_PATH, serveReport } from './reports/route';
import { emptyStats, InFlightMeter, type SandboxStats } from './stats';
import { TokenStore } from './tokens';

export type Sandbox = {
  url: string;
  /** Its origin as browsers reach it: where the batches' analysis links point. */
  publicUrl: string;
  port: number;
  config: SandboxConfig;
  organisations: Organisation[];
  tokens: TokenStore;
  faults: Faults;
  stats: SandboxStats;
  resetStats(): void;
  close(): Promise<void>;
};

const VERSIONED = /^\/(v1|v2)\/(auth|batches)$/;

/** The error page a reverse proxy sends in front of a backend that restarted or answered too slowly. */
const gatewayPage = (title: string) =>
  `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

/** What a crashed web framework answers: a plain-text trace, with its paths, never meant for anyone's eyes. */
const CRASH_TRACE =
  'Internal Server Error\n\nTraceback (most recent call last):\n  File "/srv/batch-service/app/routes/batches.py", line 88, in list_batches\n' +
  '    rows = await repo.fetch(filters)\nConnectionResetError: [Errno 104] Connection reset by peer\n';

/** Starts the emulated Batch Data Service. Port 0 picks a free port (tests). */
export async function startSandbox(
  options: SandboxOptions | SandboxConfig = {},
  /** Organisations with hand-made batches, added to the seeded ones (tests of seams and ties). */
  extra: Organisation[] = [],
): Promise<Sandbox> {
  const config = parseSandboxOptions(options as SandboxOptions);
  // Made once the port is known (port 0 picks one): the batches' analysis links name it.
  const organisations: Organisation[] = [];
  const original: Organisation[] = [];
  const cursors = new CursorCodec(`sandbox-cursor/${config.seed}`);
  const faults = new Faults(config);
  const tokens = new TokenStore(config.tokenTtlS);
  let stats = emptyStats();
  let meter = new InFlightMeter(() => performance.now());

  async function serveFault(kind: FaultKind, req: IncomingMessage, res: ServerResponse) {
    stats.faultsServed++;
    switch (kind) {
      case '503': {
        const headers: Record<string, string> =
          faults.retryAfterS === null ? {} : { 'retry-after': String(faults.retryAfterS) };
        return sendJson(res, 503, { detail: 'Service unavailable: the batch store could not be reached' }, headers);
      }
      case '500':
        return sendJson(res, 500, { detail: 'Internal server error' });
      case 'malformed-json':
        return sendJson(res, 200, '{"data": [{"batch_id": "x", ');
      case 'wrong-shape': {
        const org = organisations[0]!;
        const batch = { ...org.batches[0]!, avg_germination_rate: 91.5 };
        const body = req.url?.startsWith('/v1/') ? [batch] : { data: [batch], next_token: null };
        return sendJson(res, 200, body);
      }
      case 'truncated': {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        res.write('{"data": [');
        return setTimeout(() => res.destroy(), 20);
      }
      case 'reset':
        return req.socket.destroy();
      case 'hang':
        return; // never answers; the socket is destroyed when the server closes
      case 'gateway-502':
        return sendText(res, 502, 'text/html', gatewayPage('502 Bad Gateway'));
      case 'gateway-504':
        return sendText(res, 504, 'text/html', gatewayPage('504 Gateway Time-out'));
      case '429':
        return sendJson(
          res,
          429,
          { detail: 'Too many requests' },
          { 'retry-after': String(faults.rateLimitRetryAfterS) },
        );
      case 'crash-500':
        return sendText(res, 500, 'text/plain', CRASH_TRACE);
      case 'token-refused':
        return sendJson(res, 401, { detail: 'Invalid access token' }, { 'www-authenticate': 'Bearer' });
      case 'validation-list':
        return sendJson(res, 422, {
          detail: [{ loc: ['query', 'start_date'], msg: 'Input should be a valid datetime', type: 'datetime_parsing' }],
        });
    }
  }

  async function auth(version: string, req: IncomingMessage, res: ServerResponse) {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const body = await readBody(req);
    if (type !== 'application/x-www-form-urlencoded') {
      throw new HttpError(422, 'body: must be form-encoded (application/x-www-form-urlencoded)');
    }
    const form = new URLSearchParams(body);
    for (const field of ['grant_type', 'client_id', 'client_secret']) {
      if (!form.get(field)) throw new HttpError(422, `${field}: field required`);
    }
    if (form.get('grant_type') !== 'client_credentials') {
      throw new HttpError(422, 'grant_type: the only allowed value is client_credentials');
    }
    const org = organisations.find(
      (o) => o.clientId === form.get('client_id') && o.clientSecret === form.get('client_secret'),
    );
    if (!org) throw new HttpError(401, 'Invalid client_id or client_secret');
    const { token, expiresIn } = tokens.issue(org.id, version);
    stats.tokensIssuedByOrg[org.id] = (stats.tokensIssuedByOrg[org.id] ?? 0) + 1;
    sendJson(res, 200, { access_token: token, token_type: 'bearer', expires_in: expiresIn });
  }

  async function batches(version: string, url: URL, req: IncomingMessage, res: ServerResponse) {
    const check = tokens.check(req.headers.authorization, version);
    if (!check.ok) throw new HttpError(401, check.detail, { 'www-authenticate': 'Bearer' });
    const org = organisations.find((o) => o.id === check.orgId)!;
    if (version === 'v1') {
      const range = resolveRange(org, url.searchParams);
      return streamJsonArray(res, org.jsonOf, range.from, range.to);
    }
    sendJson(res, 200, pageOf(org, url.searchParams, config.pageSize, cursors).body);
  }

  /** Batch requests in flight per organisation, for the concurrency rate limit. */
  const inFlight = new Map<string, number>();

  /**
   * A gateway's rate limit on concurrent batch requests of one organisation: one over the limit is answered
   * 429 at once, before the service's own latency. Returns false when the request was answered here.
   */
  function admit(req: IncomingMessage, res: ServerResponse, version: string): boolean {
    const limit = faults.rateLimitConcurrent;
    if (limit === null) return true;
    const check = tokens.check(req.headers.authorization, version);
    if (!check.ok) return true; // the service itself answers 401
    const now = inFlight.get(check.orgId) ?? 0;
    if (now >= limit) {
      stats.faultsServed++;
      sendJson(
        res,
        429,
        { detail: `Too many requests: at most ${limit} at once` },
        { 'retry-after': String(faults.rateLimitRetryAfterS) },
      );
      return false;
    }
    inFlight.set(check.orgId, now + 1);
    res.once('close', () => inFlight.set(check.orgId, (inFlight.get(check.orgId) ?? 1) - 1));
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox.local');
    if (url.pathname.startsWith(REPORTS_PATH)) return serveReport(url.pathname, req, res, organisations);
    if (url.pathname.startsWith('/_sandbox/')) {
      return handleControl(url.pathname, req, res, {
        faults,
        tokens,
        tokenTtlS: config.tokenTtlS,
        stats: () => stats,
        resetStats,
        edit,
        resetData,
      });
    }
    const route = VERSIONED.exec(url.pathname);
    if (!route) throw new HttpError(404, 'Not Found');
    const [, version, resource] = route as unknown as [string, string, 'auth' | 'batches'];
    const method = resource === 'auth' ? 'POST' : 'GET';
    if (req.method !== method) throw new HttpError(405, 'Method Not Allowed', { allow: method });
    if (resource === 'auth') stats.authRequests++;
    else {
      stats.batchRequests++;
      // Counted from arrival to the answer's end (latency included): what a client has in flight.
      const [counted, by] = [stats, meter];
      by.start(counted);
      res.once('close', () => by.end(counted));
    }
    if (resource === 'batches' && !admit(req, res, version)) return;
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    const fault = faults.pick(resource);
    if (fault) return serveFault(fault, req, res);
    return resource === 'auth' ? auth(version, req, res) : batches(version, url, req, res);
  }

  function resetStats() {
    stats = emptyStats();
    meter = new InFlightMeter(() => performance.now());
  }

  /** POST /_sandbox/edit: the organisation's batches with `change`, `remove` and `add` applied (until reset). */
  function edit({ clientId, change, remove, add }: Edit) {
    const at = organisations.findIndex((o) => o.clientId === clientId);
    if (at < 0) throw new HttpError(422, 'clientId: no organisation has this client ID');
    const org = organisations[at]!;
    const byId = new Map(org.batches.map((b) => [b.batch_id, b]));
    for (const id of [...change.map((c) => c.batch_id), ...remove]) {
      if (!byId.has(id)) throw new HttpError(422, `batch_id: ${id.slice(0, 60)} is not a batch of this organisation`);
    }
    for (const { batch_id, set } of change) byId.set(batch_id, { ...byId.get(batch_id)!, ...set });
    for (const id of remove) byId.delete(id);
    for (const batch of add) byId.set(batch.batch_id, batch);
    const { id, name, clientSecret } = org;
    organisations[at] = organisationOf({ id, name, clientId, clientSecret }, [...byId.values()]);
    return { batches: byId.size };
  }

  function resetData() {
    organisations.splice(0, organisations.length, ...original);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (error instanceof HttpError) return sendError(res, error);
      console.error('[sandbox] unexpected error', error);
      sendJson(res, 500, { detail: 'Internal server error' });
    });
  });
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${hostInUrl(config.host)}:${port}`;
  const publicUrl = publicUrlOf(config, port);
  organisations.push(...buildOrganisations(config, publicUrl), ...extra);
  original.push(...organisations);
  return {
    url,
    publicUrl,
    port,
    config,
    organisations,
    tokens,
    faults,
    get stats() {
      return stats;
    },
    resetStats,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
