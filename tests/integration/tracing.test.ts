import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as stream from '@/app/api/batches/stream/route';
import * as session from '@/app/api/session/route';
import * as targets from '@/app/api/settings/targets/route';
import { settingsStore } from '@/lib/server/settings';
import { registerTracing } from '@/lib/server/tracing/setup';
import { createRequestHandler } from '@/server/handle-request';
import { routeMatcher } from '@/server/route-templates';
import { bffForFile, DEMO, request, sessionCookieOf } from '../helpers/bff';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { control } from '../helpers/sandbox';

// Traces recorded in memory for this file, as the SDK's own exporter for tests keeps them.
const exporter = new InMemorySpanExporter();
const provider = registerTracing(new SimpleSpanProcessor(exporter));

let postgres: PostgresServer;
const sandbox = bffForFile(
  { SIGNIN_ATTEMPTS_PER_IP: '100000', BATCH_API_TIMEOUT_MS: '3000' },
  { batches: 1500, pageSize: 50 },
);
beforeAll(async () => {
  postgres = await startPostgres();
  process.env.DATABASE_URL = await postgres.createDatabase('traced');
});

/** Next's part, for the routes this file asks: a Request built from the Node request, the Response written back. */
const ROUTES: Record<string, Record<string, (request: Request) => Promise<Response>>> = {
  '/api/batches/stream': stream as never,
  '/api/settings/targets': targets as never,
};
async function next(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url!, 'http://app.test');
  const headers = Object.entries(req.headers).flatMap(([name, value]) =>
    [value ?? []].flat().map((v): [string, string] => [name, v]),
  );
  const response = await ROUTES[url.pathname]![req.method!]!(new Request(url, { method: req.method, headers }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  for await (const chunk of response.body ?? []) res.write(chunk);
  res.end();
}
const MANIFEST = {
  staticRoutes: Object.keys(ROUTES).map((page) => ({ page, regex: `^${page}(?:/)?$` })),
  dynamicRoutes: [],
};

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer(createRequestHandler({ next, routeOf: routeMatcher(MANIFEST) }).handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await provider.shutdown();
  await postgres?.stop();
});

async function signIn(): Promise<string> {
  const response = await session.POST(request('/api/session', { method: 'POST', json: DEMO }));
  expect(response.status).toBe(204);
  return sessionCookieOf(response)!;
}

/** The spans of the trace whose root is the request span for `route`. */
function traceOf(route: string): { root: ReadableSpan; children: ReadableSpan[] } {
  const spans = exporter.getFinishedSpans();
  const root = spans.find((s) => s.kind === SpanKind.SERVER && s.attributes['http.route'] === route)!;
  expect(root, route).toBeDefined();
  const inTrace = spans.filter((s) => s.spanContext().traceId === root.spanContext().traceId && s !== root);
  return { root, children: inTrace };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('traces: one span per request, a child span per upstream call, retry and database query', () => {
  it('a range load: the request span, a client span for each exchange with the service, and the retry after a 503', async () => {
    const cookie = await signIn();
    // The first batch request answers 503 (its Retry-After: 0 makes the retry's wait short).
    await control(sandbox(), 'POST', '/_sandbox/faults', { retryAfterS: 0 });
    await control(sandbox(), 'POST', '/_sandbox/inject', { kind: '503', count: 1, target: 'batches' });
    exporter.reset();
    const before = (await control(sandbox(), 'GET', '/_sandbox/stats')) as { batchRequests: number };

    const response = await fetch(`${base}/api/batches/stream`, {
      headers: { cookie, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { done?: boolean; count?: number });
    expect(lines.at(-1)).toEqual({ done: true, count: 1500 });
    const after = (await control(sandbox(), 'GET', '/_sandbox/stats')) as { batchRequests: number };

    await expect.poll(() => exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER)).toBe(true);
    const { root, children } = traceOf('/api/batches/stream');
    // The caller's trace carried on: the request span is a child of the traceparent it came with.
    expect(root.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(parentOf(root)).toBe('b7ad6b7169203331');
    expect(root.name).toBe('GET /api/batches/stream');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/batches/stream',
      'http.response.status_code': 200,
      'url.path': '/api/batches/stream',
    });

    const exchanges = children.filter((s) => s.kind === SpanKind.CLIENT && s.name === 'GET /v2/batches');
    expect(exchanges).toHaveLength(after.batchRequests - before.batchRequests);
    expect(exchanges.length).toBeGreaterThan(5);
    expect(
      exchanges.map((s) => s.attributes['http.response.status_code']).filter((status) => status === 503),
    ).toHaveLength(1);
    for (const span of exchanges) {
      expect(parentOf(span)).toBe(root.spanContext().spanId);
      expect(span.attributes['url.full']).toBe(`${sandbox().url}/v2/batches`); // no query
      expect(span.startTime[0] * 1e3 + span.startTime[1] / 1e6).toBeGreaterThanOrEqual(
        root.startTime[0] * 1e3 + root.startTime[1] / 1e6 - 1,
      );
    }
    const retries = children.filter((s) => s.name === 'batch_service retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]!.attributes).toMatchObject({
      'batch_service.retry.attempt': 1,
      'batch_service.retry.reason': 'unavailable',
      'url.path': '/v2/batches',
    });
    expect(parentOf(retries[0]!)).toBe(root.spanContext().spanId);
    // Nothing of the session or the credentials in any span.
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes))).not.toMatch(
      /demo-secret|tsb_session|Bearer/,
    );
  });

  it('a settings read: the request span, and a span per database statement under it (placeholders, never values)', async () => {
    const cookie = await signIn();
    exporter.reset();
    expect((await fetch(`${base}/api/settings/targets`, { headers: { cookie } })).status).toBe(200);
    await expect.poll(() => exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER)).toBe(true);
    const { root, children } = traceOf('/api/settings/targets');
    const queries = children.filter((s) => s.attributes['db.system.name'] === 'postgresql');
    // The first request migrates the new database; the read is the last statement.
    const read = queries.at(-1)!;
    expect(read.name).toBe('SELECT');
    expect(read.attributes['db.query.text']).toMatch(
      /from "organisation_settings" as "s" .* where "s"\."organisation_id" = \$1 and "s"\."name" = \$2$/,
    );
    const demo = await settingsStore().organisations.bySlug('demo');
    expect(JSON.stringify(queries.map((q) => q.attributes))).not.toContain(demo!.id);
    for (const query of queries) expect(parentOf(query)).toBe(root.spanContext().spanId);
  });
});
