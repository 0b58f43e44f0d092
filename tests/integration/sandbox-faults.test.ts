import { describe, expect, it } from 'vitest';
import { sandboxConfigFromEnv } from '@/sandbox/config';
import { startSandbox } from '@/sandbox/server';
import { authForm, control, getBatches, tokenFor, sandboxForFile } from '../helpers/sandbox';

const sandbox = sandboxForFile({ batches: 300 });

describe('sandbox: fault switches', () => {
  it('SANDBOX_FAIL_503_EVERY fails every Nth batch request with detail', async () => {
    const token = await tokenFor(sandbox());
    await control(sandbox(), 'POST', '/_sandbox/faults', { fail503Every: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await getBatches(sandbox(), 'v2', token);
      statuses.push(response.status);
      if (response.status === 503) expect((await response.json()).detail).toMatch(/unavailable/i);
      else await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 503, 200, 200, 503]);
  });

  it('SANDBOX_FAIL_503_RATE fails about that share of requests, with Retry-After when set', async () => {
    const token = await tokenFor(sandbox());
    await control(sandbox(), 'POST', '/_sandbox/faults', { fail503Rate: 0.5, retryAfterS: 2 });
    let failed = 0;
    for (let i = 0; i < 60; i++) {
      const response = await getBatches(sandbox(), 'v2', token);
      if (response.status === 503) {
        failed++;
        expect(response.headers.get('retry-after')).toBe('2');
      }
      await response.arrayBuffer();
    }
    expect(failed).toBeGreaterThan(15);
    expect(failed).toBeLessThan(45);
  });

  it('SANDBOX_LATENCY_MS delays every answer', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { latencyMs: 150 });
    const started = performance.now();
    await tokenFor(sandbox());
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('an outage answers 503 to auth as well', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { outage: true });
    const response = await authForm(sandbox(), 'v2', {
      grant_type: 'client_credentials',
      client_id: 'demo-client',
      client_secret: 'demo-secret',
    });
    expect(response.status).toBe(503);
  });

  it('injects one-off faults: 500, malformed JSON, wrong shape, truncated body, reset, hang', async () => {
    const token = await tokenFor(sandbox());
    const inject = (kind: string) => control(sandbox(), 'POST', '/_sandbox/inject', { kind });

    await inject('500');
    const five = await getBatches(sandbox(), 'v2', token);
    expect([five.status, (await five.json()).detail]).toEqual([500, 'Internal server error']);

    await inject('malformed-json');
    await expect((await getBatches(sandbox(), 'v2', token)).json()).rejects.toThrow();

    await inject('wrong-shape');
    const shape = await (await getBatches(sandbox(), 'v2', token)).json();
    expect(shape.data[0].avg_germination_rate).toBe(91.5);

    await inject('truncated');
    await expect(getBatches(sandbox(), 'v2', token).then((r) => r.text())).rejects.toThrow();

    await inject('reset');
    await expect(getBatches(sandbox(), 'v2', token)).rejects.toThrow();

    await inject('hang');
    const hung = await Promise.race([
      getBatches(sandbox(), 'v2', token).then(() => 'answered'),
      new Promise((r) => setTimeout(() => r('no answer'), 300)),
    ]);
    expect(hung).toBe('no answer');

    // Faults are one-off: the next request is served normally.
    expect((await getBatches(sandbox(), 'v2', token)).status).toBe(200);
    const stats = await control(sandbox(), 'GET', '/_sandbox/stats');
    expect(stats.faultsServed).toBe(6);
  });

  it('refuses bad control input with 422 and detail', async () => {
    const response = await fetch(`${sandbox().url}/_sandbox/faults`, { method: 'POST', body: '{"latencyMs": -1}' });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(/^latencyMs:/);
  });

  it('counts auth requests and grants per organisation', async () => {
    await tokenFor(sandbox());
    await tokenFor(sandbox());
    const stats = await control(sandbox(), 'GET', '/_sandbox/stats');
    expect(stats.authRequests).toBe(2);
    expect(stats.tokensIssuedByOrg).toEqual({ 'org-demo': 2 });
  });
});

describe('sandbox: configuration', () => {
  it('reads SANDBOX_* variables and names the bad one', () => {
    const config = sandboxConfigFromEnv({
      SANDBOX_PORT: '4999',
      SANDBOX_PAGE_SIZE: '25',
      SANDBOX_FAIL_503_RATE: '0.1',
    });
    expect(config).toMatchObject({ port: 4999, pageSize: 25, fail503Rate: 0.1, batches: 3000, tokenTtlS: 900 });
    expect(() => sandboxConfigFromEnv({ SANDBOX_PAGE_SIZE: 'lots' })).toThrow(/SANDBOX_PAGE_SIZE/);
    expect(() => sandboxConfigFromEnv({ SANDBOX_FAIL_503_RATE: '2' })).toThrow(/SANDBOX_FAIL_503_RATE/);
  });

  it('generates 200,000 batches and serves them', async () => {
    const big = await startSandbox({ port: 0, batches: 200_000, pageSize: 1000 });
    try {
      expect(big.organisations[0]!.batches).toHaveLength(200_000);
      const token = await tokenFor(big);
      const body = await (await getBatches(big, 'v2', token)).json();
      expect(body.data).toHaveLength(1000);
    } finally {
      await big.close();
    }
  }, 60_000);
});

describe('sandbox: the faults of a real deployment', () => {
  const inject = (kind: string) => control(sandbox(), 'POST', '/_sandbox/inject', { kind });

  it('a reverse proxy’s HTML 502 and 504 pages, a crashed framework’s text/plain 500', async () => {
    const token = await tokenFor(sandbox());
    for (const [kind, status, type, text] of [
      ['gateway-502', 502, 'text/html', '<title>502 Bad Gateway</title>'],
      ['gateway-504', 504, 'text/html', '<title>504 Gateway Time-out</title>'],
      ['crash-500', 500, 'text/plain', 'Traceback (most recent call last)'],
    ] as const) {
      await inject(kind);
      const response = await getBatches(sandbox(), 'v2', token);
      expect(response.status, kind).toBe(status);
      expect(response.headers.get('content-type')).toMatch(new RegExp(`^${type}`));
      expect(await response.text()).toContain(text);
    }
  });

  it('a validation error with a list-shaped detail, and a 429 with Retry-After', async () => {
    const token = await tokenFor(sandbox());
    await inject('validation-list');
    const invalid = await getBatches(sandbox(), 'v2', token);
    expect([invalid.status, await invalid.json()]).toEqual([
      422,
      { detail: [{ loc: ['query', 'start_date'], msg: 'Input should be a valid datetime', type: 'datetime_parsing' }] },
    ]);
    await control(sandbox(), 'POST', '/_sandbox/faults', { rateLimitRetryAfterS: 2 });
    await inject('429');
    const limited = await getBatches(sandbox(), 'v2', token);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '2']);
  });

  it('a rate limit on concurrent batch requests per organisation: the one over it is answered 429 at once', async () => {
    const demo = await tokenFor(sandbox());
    const other = await tokenFor(sandbox(), 'v2', { clientId: 'other-client', clientSecret: 'other-secret' });
    await control(sandbox(), 'POST', '/_sandbox/faults', {
      rateLimitConcurrent: 2,
      rateLimitRetryAfterS: 1,
      latencyMs: 150,
    });
    const answers = await Promise.all([demo, demo, demo, other].map((t) => getBatches(sandbox(), 'v2', t)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
    expect(statuses[3]).toBe(200); // another organisation has its own allowance
    const limited = answers.find((r) => r.status === 429)!;
    expect(limited.headers.get('retry-after')).toBe('1');
    await Promise.all(answers.map((r) => r.arrayBuffer()));
    // Once they are answered, the allowance is free again.
    expect((await getBatches(sandbox(), 'v2', demo)).status).toBe(200);
  });
});
