import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDraining } from '@/lib/server/health/shutdown';
import { PEER_ADDRESS_HEADER } from '@/lib/server/http/peer-address';
import { metrics } from '@/lib/server/metrics/registry';
import { createRequestHandler } from '@/server/handle-request';
import { routeMatcher } from '@/server/route-templates';
import { captureLogs } from '../helpers/logs';

/** What a build's routes manifest says, for these paths. */
const MANIFEST = {
  staticRoutes: [
    { page: '/_not-found', regex: '^/_not\\-found(?:/)?$' },
    { page: '/api/health/ready', regex: '^/api/health/ready(?:/)?$' },
    { page: '/api/slow', regex: '^/api/slow(?:/)?$' },
    { page: '/sign-in', regex: '^/sign\\-in(?:/)?$' },
  ],
  dynamicRoutes: [{ page: '/api/settings/views/[id]', regex: '^/api/settings/views/([^/]+?)(?:/)?$' }],
};
const TOKEN = 'metrics-token-for-tests-0123';

/** Next's stand-in: echoes what it was handed; /api/slow answers when told to. */
const seen: { headers: IncomingMessage['headers'] }[] = [];
let answerSlow: (() => void) | undefined;
async function next(req: IncomingMessage, res: ServerResponse): Promise<void> {
  seen.push({ headers: req.headers });
  if (req.url?.startsWith('/api/slow')) {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first\n');
    await new Promise<void>((resolve) => (answerSlow = resolve));
    res.end('last\n');
    return;
  }
  const status = req.url === '/nowhere' ? 404 : 200;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: status === 200 }));
}

const handler = createRequestHandler({ next, routeOf: routeMatcher(MANIFEST, ['/metrics']), metricsToken: TOKEN });
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer(handler.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => (seen.length = 0));

type Answer = { status: number; headers: IncomingMessage['headers']; body: string };

/** Any method (fetch refuses TRACE), from a chosen loopback address. */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  localAddress = '127.0.0.1',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, localAddress }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject).end();
  });
}

/** The request lines written while `work` ran (each is written when its answer is complete). */
async function requestLines(work: () => Promise<unknown>, count: number): Promise<Record<string, unknown>[]> {
  const capture = captureLogs();
  try {
    await work();
    await expect.poll(() => capture.lines().filter((l) => l.msg === 'request').length).toBe(count);
    return capture.lines().filter((l) => l.msg === 'request');
  } finally {
    capture.stop();
  }
}

describe('the production server around Next (server/handle-request.ts)', () => {
  it('gives every request an id: a valid X-Request-Id is kept, anything else replaced, and the answer and its log line carry it', async () => {
    const answers: Answer[] = [];
    const lines = await requestLines(async () => {
      answers.push(await send('GET', '/sign-in', { 'x-request-id': '0123456789abcdef0123456789abcdef' }));
      answers.push(await send('GET', '/sign-in', { 'x-request-id': 'no spaces or "quotes" allowed' }));
      answers.push(await send('GET', '/sign-in'));
    }, 3);
    const ids = answers.map((a) => a.headers['x-request-id']);
    expect(ids[0]).toBe('0123456789abcdef0123456789abcdef');
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(3);
    expect(lines.map((l) => l.request_id)).toEqual(ids);
    expect(seen.map((s) => s.headers['x-request-id'])).toEqual(ids);
  });

  it('one line per request, whatever answered it: level, time, method, path without the query, route template, status, duration', async () => {
    const lines = await requestLines(async () => {
      await send('GET', '/api/settings/views/0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f?secret=x');
      await send('GET', '/nowhere');
      await send('TRACE', '/sign-in');
    }, 3);
    expect(lines.map((l) => [l.level, l.method, l.path, l.route, l.status])).toEqual([
      ['info', 'GET', '/api/settings/views/0b8e3a4c-3f6e-4a57-9b5e-3c8f3c1d2e4f', '/api/settings/views/[id]', 200],
      ['warn', 'GET', '/nowhere', undefined, 404],
      ['warn', 'TRACE', '/sign-in', '/sign-in', 405],
    ]);
    for (const line of lines) {
      expect(Date.parse(String(line.time))).not.toBeNaN();
      expect(line.durationMs).toBeTypeOf('number');
    }
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('answers TRACE itself (Next cannot), and hands Next the socket’s address, not the one a client claims', async () => {
    const trace = await send('TRACE', '/api/health/ready');
    expect([trace.status, trace.headers.allow, trace.headers['x-content-type-options']]).toEqual([
      405,
      'GET, HEAD, OPTIONS',
      'nosniff',
    ]);
    expect(seen).toHaveLength(0);
    await send('GET', '/sign-in', { [PEER_ADDRESS_HEADER]: '203.0.113.9' }, '127.0.0.7');
    expect(seen[0]!.headers[PEER_ADDRESS_HEADER]).toBe('127.0.0.7');
  });

  it('a client that leaves before the answer is logged as 499, one that leaves mid-stream as aborted', async () => {
    const lines = await requestLines(async () => {
      const controller = new AbortController();
      const response = await fetch(`${base}/api/slow`, { signal: controller.signal });
      await response.body!.getReader().read();
      controller.abort();
      await expect.poll(() => handler.inProgress()).toBe(0);
      answerSlow?.();
    }, 1);
    expect(lines[0]).toMatchObject({ path: '/api/slow', status: 200, aborted: true });
  });

  it('/metrics on the app’s port needs its bearer token; it counts requests by route template, method and status', async () => {
    const refused = await send('GET', '/metrics');
    expect([refused.status, refused.headers['www-authenticate']]).toEqual([401, 'Bearer realm="metrics"']);
    expect((await send('GET', '/metrics', { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    await send('GET', '/api/settings/views/another-id');
    const scraped = await send('GET', '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect([scraped.status, scraped.headers['content-type']]).toEqual([200, metrics().registry.contentType]);
    expect(scraped.body).toMatch(
      /^http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/api\/settings\/views\/\[id\]",http_response_status_code="200"\} \d+$/m,
    );
    expect(scraped.body).toContain('process_cpu_seconds_total');
    expect(scraped.body).not.toContain('another-id');
    expect(seen).toHaveLength(1); // only the view: /metrics never reached Next
  });
});

// Last in this file: draining does not end.
describe('draining (SIGTERM)', () => {
  it('refuses new requests with 503, Retry-After and the connection closed; health still answers; running ones finish', async () => {
    const running = fetch(`${base}/api/slow`).then((r) => r.text());
    await expect.poll(() => handler.inProgress()).toBe(1);
    startDraining();
    const refused = await send('GET', '/sign-in');
    expect([refused.status, refused.headers['retry-after'], refused.headers.connection]).toEqual([503, '5', 'close']);
    expect(JSON.parse(refused.body)).toEqual({ detail: 'server: this server is restarting; try again shortly' });
    expect((await send('GET', '/api/health/ready')).status).toBe(200); // Next's to answer (here: the stand-in)
    const idle = handler.idle();
    answerSlow?.();
    expect(await running).toBe('first\nlast\n');
    await idle;
    expect(handler.inProgress()).toBe(0);
  });
});
