import { describe, expect, it, vi } from 'vitest';
import { DEMO_CREDENTIALS, SPECIAL_CREDENTIALS } from '@/sandbox/organisations';
import { authForm, getBatches, tokenFor, sandboxForFile } from '../helpers/sandbox';

const sandbox = sandboxForFile({ tokenTtlS: 900 });
const good = {
  grant_type: 'client_credentials',
  client_id: DEMO_CREDENTIALS.clientId,
  client_secret: DEMO_CREDENTIALS.clientSecret,
};

describe('sandbox: POST /v1/auth and /v2/auth (docs/batch-data-service.md#authentication)', () => {
  it.each(['v1', 'v2'])('%s issues a bearer token for good credentials', async (version) => {
    const response = await authForm(sandbox(), version, good);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = await response.json();
    expect(body.access_token).toEqual(expect.any(String));
    expect(body.access_token.length).toBeGreaterThan(20);
  });

  it.each([
    ['wrong secret', { ...good, client_secret: 'nope' }],
    ['wrong client id', { ...good, client_id: 'nobody' }],
    ['secret of another organisation', { ...good, client_secret: 'other-secret' }],
  ])('401 with detail for a %s', async (_, fields) => {
    const response = await authForm(sandbox(), 'v2', fields);
    expect(response.status).toBe(401);
    expect((await response.json()).detail).toMatch(/client_id or client_secret/);
  });

  it.each([
    ['grant_type missing', { client_id: 'demo-client', client_secret: 'demo-secret' }, 'grant_type'],
    ['grant_type wrong', { ...good, grant_type: 'password' }, 'grant_type'],
    ['client_id missing', { grant_type: 'client_credentials', client_secret: 'demo-secret' }, 'client_id'],
    ['client_secret missing', { grant_type: 'client_credentials', client_id: 'demo-client' }, 'client_secret'],
    ['client_secret empty', { ...good, client_secret: '' }, 'client_secret'],
  ])('422 naming the field when %s', async (_, fields, field) => {
    const response = await authForm(sandbox(), 'v1', fields as Record<string, string>);
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toContain(field);
  });

  it('422 for a body that is not form-encoded', async () => {
    const response = await fetch(`${sandbox().url}/v2/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(good),
    });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(/form-encoded/);
  });

  it('413 for an oversized body, 405 for GET, 404 for unknown paths, all with detail', async () => {
    const big = await authForm(sandbox(), 'v2', { ...good, client_secret: 'x'.repeat(20_000) });
    expect(big.status).toBe(413);
    const get = await fetch(`${sandbox().url}/v2/auth`);
    expect(get.status).toBe(405);
    const missing = await fetch(`${sandbox().url}/v3/batches`);
    expect(missing.status).toBe(404);
    for (const r of [big, get, missing]) expect((await r.json()).detail).toEqual(expect.any(String));
  });

  it('accepts secrets with + / = & % and non-ASCII characters, form-encoded', async () => {
    const token = await tokenFor(sandbox(), 'v2', SPECIAL_CREDENTIALS);
    const response = await getBatches(sandbox(), 'v2', token);
    expect(response.status).toBe(200);
    expect((await response.json()).data.length).toBeGreaterThan(0);
  });

  it('tokens are scoped to the version whose endpoint issued them', async () => {
    const v1 = await tokenFor(sandbox(), 'v1');
    expect((await getBatches(sandbox(), 'v2', v1)).status).toBe(401);
    expect((await getBatches(sandbox(), 'v1', v1)).status).toBe(200);
  });
});

describe('sandbox: bearer tokens on batch requests', () => {
  it.each([
    ['missing', null, /missing Authorization/],
    ['invalid', 'not-a-token', /Invalid access token/],
  ])('401 with detail when the token is %s', async (_, token, detail) => {
    const response = await getBatches(sandbox(), 'v2', token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect((await response.json()).detail).toMatch(detail);
  });

  it('401 "expired" once the TTL has passed', async () => {
    const s = sandbox();
    s.tokens.ttlS = 0.2;
    const token = await tokenFor(s);
    expect((await getBatches(s, 'v2', token)).status).toBe(200);
    // The sandbox's clock, 300 ms on (timers stay real: the HTTP exchange runs as ever).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 300 });
    try {
      const response = await getBatches(s, 'v2', token);
      expect(response.status).toBe(401);
      expect((await response.json()).detail).toMatch(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('expires_in tells the TTL, and revoke-tokens ends every grant', async () => {
    const response = await authForm(sandbox(), 'v2', good);
    const body = await response.json();
    expect(body.expires_in).toBe(900);
    await fetch(`${sandbox().url}/_sandbox/revoke-tokens`, { method: 'POST' });
    expect((await getBatches(sandbox(), 'v2', body.access_token)).status).toBe(401);
  });
});
