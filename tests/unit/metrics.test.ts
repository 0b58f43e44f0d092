import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { metricsAnswer } from '@/lib/server/metrics/endpoint';
import { observeHttpRequest } from '@/lib/server/metrics/http';
import { metrics } from '@/lib/server/metrics/registry';
import { countSignIns, setActiveSessions, signInResultOf } from '@/lib/server/metrics/sign-ins';
import { observeUpstreamCall, outcomeOf } from '@/lib/server/metrics/upstream';

/** Every series name the registry exports (a histogram's as its _bucket, _sum and _count). */
async function exportedNames(): Promise<Set<string>> {
  const text = await metrics().registry.metrics();
  return new Set(
    text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(l)![0]),
  );
}

/** A scrape's value of `series` (its text line), or undefined. */
async function valueOf(series: string): Promise<number | undefined> {
  const line = (await metrics().registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics (lib/server/metrics/)', () => {
  it('names the outcome of an exchange with the service as the dashboards read it', () => {
    expect(
      [
        { status: 200 },
        { status: 422 },
        { status: 401 },
        { status: 429 },
        { status: 503 },
        { status: 502 },
        { status: 500 },
        { status: null, error: 'timeout' },
        { status: null, error: 'connection' },
        { status: null, error: 'aborted' },
      ].map(outcomeOf),
    ).toEqual(['ok', 'ok', 'ok', '429', '503', '5xx', '5xx', 'timeout', 'refused', undefined]);
  });

  it('counts and times exchanges by operation and outcome; one the person abandoned is not counted', async () => {
    observeUpstreamCall({ method: 'GET', path: '/v2/batches', status: 503, durationMs: 1500 });
    observeUpstreamCall({ method: 'POST', path: '/v2/auth', status: 200, durationMs: 20 });
    observeUpstreamCall({ method: 'GET', path: '/v2/batches', status: null, durationMs: 5, error: 'aborted' });
    expect(await valueOf('batch_service_requests_total{operation="batches",outcome="503"}')).toBe(1);
    expect(await valueOf('batch_service_requests_total{operation="auth",outcome="ok"}')).toBe(1);
    expect(
      await valueOf('batch_service_request_duration_seconds_bucket{le="2.5",operation="batches",outcome="503"}'),
    ).toBe(1);
    expect(
      await valueOf('batch_service_request_duration_seconds_bucket{le="1",operation="batches",outcome="503"}'),
    ).toBe(0);
    expect(await metrics().registry.metrics()).not.toContain('aborted');
  });

  it('labels requests by method (an invented one as _OTHER), route template and status', async () => {
    observeHttpRequest('GET', '/api/settings/views/[id]', 404, 0.02);
    observeHttpRequest('FROBNICATE', undefined, 405, 0.001);
    expect(
      await valueOf(
        'http_server_request_duration_seconds_count{http_request_method="GET",http_route="/api/settings/views/[id]",http_response_status_code="404"}',
      ),
    ).toBe(1);
    expect(
      await valueOf(
        'http_server_request_duration_seconds_count{http_request_method="_OTHER",http_route="",http_response_status_code="405"}',
      ),
    ).toBe(1);
  });

  it('counts sign-ins by method and the result their answer tells', async () => {
    expect([204, 401, 429, 422, 403, 503, 504, 500].map(signInResultOf)).toEqual([
      'success',
      'refused',
      'throttled',
      'invalid',
      'invalid',
      'unavailable',
      'unavailable',
      'error',
    ]);
    const signIn = countSignIns('password', async () => new Response(null, { status: 401 }));
    await signIn(new Request('http://app.test/api/session', { method: 'POST' }));
    expect(await valueOf('sign_ins_total{method="password",result="refused"}')).toBe(1);
    setActiveSessions(42);
    expect(await valueOf('sessions_active')).toBe(42);
  });

  it('/metrics asks for the bearer token where one is set, and none on the loopback listener', async () => {
    expect((await metricsAnswer(undefined, 'a-token-of-sixteen-chars')).status).toBe(401);
    expect((await metricsAnswer('Bearer a-token-of-sixteen-chars', 'a-token-of-sixteen-chars')).status).toBe(200);
    expect((await metricsAnswer('Basic a-token-of-sixteen-chars', 'a-token-of-sixteen-chars')).status).toBe(401);
    const open = await metricsAnswer(undefined, undefined);
    expect([open.status, open.headers['content-type']]).toEqual([200, metrics().registry.contentType]);
    expect(open.body).toContain('nodejs_eventloop_lag_p99_seconds');
  });
});

describe('the Grafana dashboard (deploy/grafana/)', () => {
  const dashboard = JSON.parse(readFileSync('deploy/grafana/tray-scan-dashboard.json', 'utf8')) as {
    panels: { title: string; targets?: { expr: string }[] }[];
    templating: { list: { query?: string | { query: string } }[] };
  };
  const queries = [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
    ...dashboard.templating.list.map((v) => (typeof v.query === 'object' ? v.query.query : '')).filter(Boolean),
  ];
  /** Metric names in PromQL: a selector (`name{` or `name[`), or label_values's first argument. */
  const referenced = new Set(
    queries.flatMap((q) =>
      [
        ...q.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{[]/g),
        ...q.matchAll(/label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)/g),
      ].map((m) => m[1]!),
    ),
  );

  it('refers only to metrics the app exports', async () => {
    // Histograms and labelled metrics need a sample to appear in a scrape.
    observeHttpRequest('GET', '/sign-in', 200, 0.01);
    observeUpstreamCall({ method: 'GET', path: '/v2/batches', status: 200, durationMs: 10 });
    const exported = await exportedNames();
    for (const name of ['batch_service_retries_total', 'sign_ins_total', 'database_errors_total']) {
      // Counters with labels have no series before their first event: their names as the registry holds them.
      expect(metrics().registry.getSingleMetric(name), name).toBeDefined();
      exported.add(name);
    }
    expect(referenced.size).toBeGreaterThan(15);
    expect([...referenced].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('shows every metric of the app’s own (prom-client’s process and Node defaults aside)', () => {
    const own = metrics()
      .registry.getMetricsAsArray()
      .map((m) => m.name)
      .filter((name) => !/^(process_|nodejs_)/.test(name));
    const shown = [...referenced].map((name) => name.replace(/_(bucket|sum|count)$/, ''));
    expect(own.filter((name) => !shown.includes(name))).toEqual([]);
  });
});
