import { describe, expect, it, vi } from 'vitest';
import { AuthenticationError, InvalidInputError, TokenCache, type BatchApiClientOptions } from '@/lib/batch-api';
import { OTHER_CREDENTIALS, SPECIAL_CREDENTIALS } from '@/sandbox/organisations';
import { demoClient } from '../helpers/client';
import { control, tokenFor, sandboxForFile, walkV2 } from '../helpers/sandbox';

const sandbox = sandboxForFile({ batches: 700, pageSize: 100 });

const client = (options: Partial<BatchApiClientOptions> = {}) => demoClient(sandbox(), options);

describe('upstream client against the sandbox', () => {
  it('defaults to v2 and walks every page, passing the cursor back unchanged', async () => {
    const calls: string[] = [];
    const api = client({ onCall: (c) => calls.push(`${c.method} ${c.path} ${c.status}`) });
    expect(api.version).toBe('v2');
    const pages = [];
    for await (const page of api.pages({})) pages.push(page);
    expect(pages).toHaveLength(7);
    expect(pages.at(-1)!.next_token).toBeNull();
    const reference = await walkV2(sandbox(), await tokenFor(sandbox()));
    expect(pages.flatMap((p) => p.data)).toEqual(reference.batches);
    expect(calls).toEqual(['POST /v2/auth 200', ...Array(7).fill('GET /v2/batches 200')]);
  });

  it('v1 returns the same batches as one page and refuses a cursor', async () => {
    const v1 = client({ version: 'v1' });
    const v2 = client();
    const query = { start_date: '2025-06-01T00:00:00Z', end_date: '2025-12-31T23:59:59+00:00' };
    const [flat, paged] = await Promise.all([v1.list(query), v2.list(query)]);
    expect(flat.length).toBeGreaterThan(100);
    expect(flat).toEqual(paged);
    await expect(v1.page({}, 'abc')).rejects.toThrow(InvalidInputError);
  });

  it('validates dates by the service rules before any call, naming the field', async () => {
    const api = client();
    for (const [query, field] of [
      [{ start_date: '2025-01-01T00:00:00' }, 'start_date'],
      [{ end_date: '2025-02-30T00:00:00Z' }, 'end_date'],
      [{ start_date: '2025-01-01T00:00:00+01:00' }, 'start_date'],
      [{ start_date: 5 as unknown as string }, 'start_date'],
      [{ since: '2025-01-01T00:00:00Z' } as never, 'since'],
    ] as const) {
      const error = await api.page(query).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as InvalidInputError).field).toBe(field);
      expect((error as Error).message).toMatch(new RegExp(`^${field}:`));
    }
    expect(sandbox().stats.authRequests + sandbox().stats.batchRequests).toBe(0);
  });

  it('passes the service 422 detail through when the service refuses a cursor', async () => {
    const error = await client()
      .page({}, 'forged.cursor')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe('next_token');
  });

  it('wrong credentials are an AuthenticationError and never reuse a cached token', async () => {
    const tokenCache = new TokenCache();
    await client({ tokenCache }).authenticate();
    const wrong = client({ tokenCache, clientSecret: 'wrong' });
    await expect(wrong.authenticate()).rejects.toThrow(AuthenticationError);
    await expect(wrong.page({})).rejects.toThrow(AuthenticationError);
  });

  it('form-encodes secrets with + / = & % and non-ASCII characters', async () => {
    const batches = await client(SPECIAL_CREDENTIALS).list({});
    expect(batches).toHaveLength(60);
    expect(batches[0]!.scanned_by_email === null || batches[0]!.scanned_by_email.startsWith('zoë')).toBe(true);
  });

  it('caches the token per credentials and shares one sign-in among concurrent callers', async () => {
    const tokenCache = new TokenCache();
    const api = client({ tokenCache });
    await Promise.all(Array.from({ length: 20 }, () => api.page({})));
    await Promise.all(Array.from({ length: 5 }, () => client({ tokenCache }).page({})));
    await client({ tokenCache, ...OTHER_CREDENTIALS }).page({});
    expect(sandbox().stats.tokensIssuedByOrg).toEqual({ 'org-demo': 1, 'org-other': 1 });
  });

  it('re-authenticates once on a 401 and repeats the request, also for many callers at once', async () => {
    const tokenCache = new TokenCache();
    const api = client({ tokenCache });
    await api.page({});
    await control(sandbox(), 'POST', '/_sandbox/revoke-tokens');
    const pages = await Promise.all(Array.from({ length: 10 }, () => api.page({})));
    expect(pages.every((p) => p.data.length === 100)).toBe(true);
    expect(sandbox().stats.tokensIssuedByOrg['org-demo']).toBe(2);
  });

  it('survives token expiry in the middle of paging without losing or repeating batches', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { tokenTtlS: 0.3 });
    const before = sandbox().stats.tokensIssuedByOrg['org-demo'] ?? 0;
    // The clocks stand still but for one step: the token's 0.3 s are over after the second page, wherever the walk
    // is in real time (timers stay real: the HTTP exchanges run as ever).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    let pages = 0;
    try {
      const batches = await client({
        onCall: (c) => {
          if (c.path.includes('/batches') && c.status === 200 && ++pages === 2) vi.setSystemTime(Date.now() + 1000);
        },
      }).list({});
      expect(batches).toHaveLength(700);
      expect(new Set(batches.map((b) => b.batch_id)).size).toBe(700);
    } finally {
      vi.useRealTimers();
    }
    expect(sandbox().stats.tokensIssuedByOrg['org-demo']).toBe(before + 2);
  });

  it('renews early when the token response gives expires_in', async () => {
    await control(sandbox(), 'POST', '/_sandbox/faults', { tokenTtlS: 0.2 });
    const calls: string[] = [];
    const api = client({ onCall: (c) => calls.push(`${c.path} ${c.status}`) });
    await api.page({});
    // 250 ms on, past the 0.2 s the token response gave (timers stay real: the HTTP exchange runs as ever).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 250 });
    try {
      await api.page({});
    } finally {
      vi.useRealTimers();
    }
    expect(calls).toEqual(['/v2/auth 200', '/v2/batches 200', '/v2/auth 200', '/v2/batches 200']);
  });
});

describe('authenticate({ fresh: true })', () => {
  it('asks the auth endpoint even with a cached token, and caches the new one', async () => {
    const tokenCache = new TokenCache();
    await client({ tokenCache }).authenticate();
    await client({ tokenCache }).authenticate({ fresh: true });
    await client({ tokenCache }).page({});
    expect(sandbox().stats.tokensIssuedByOrg['org-demo']).toBe(2);
    expect(sandbox().stats.authRequests).toBe(2);
  });
});
