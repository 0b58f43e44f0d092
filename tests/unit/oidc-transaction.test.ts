import { beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionCookies } from '@/lib/server/auth/sessions';
import {
  saveTransaction,
  takeTransaction,
  TRANSACTION_TTL_S,
  type Transaction,
} from '@/lib/server/auth/oidc/transaction';

const T: Transaction = { state: 'state-1', nonce: 'nonce-1', verifier: 'verifier-1', next: '/batches?tz=UTC' };

beforeAll(() => {
  vi.stubEnv('BATCH_API_BASE_URL', 'http://127.0.0.1:4010');
  vi.stubEnv('SESSION_SECRET', 'transaction-test-secret-0123456789-abcdef');
});

/** The Set-Cookie lines of one answer. */
const lines = (cookies: SessionCookies) => cookies.outgoing.headers.getSetCookie();
const request = (cookie?: string, proto = 'http') =>
  new Request('http://app.test/api/auth/oidc/callback', {
    headers: { ...(cookie ? { cookie } : {}), 'x-forwarded-proto': proto },
  });

async function started(proto = 'http'): Promise<string> {
  const cookies = new SessionCookies(request(undefined, proto));
  await saveTransaction(cookies, T);
  return lines(cookies)[0]!;
}

describe('the sign-in transaction cookie', () => {
  it('is sealed, HttpOnly, SameSite=Lax, ten minutes; __Host- and Secure over https', async () => {
    const http = await started();
    expect(http).toMatch(
      new RegExp(`^tsb_oidc=Fe26\\.2\\*.*; Max-Age=${TRANSACTION_TTL_S}; Path=/; Expires=.*; HttpOnly; SameSite=Lax$`),
    );
    expect(http).not.toContain('verifier-1');
    expect(await started('https')).toMatch(/^__Host-tsb_oidc=Fe26\.2\*.*; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('is taken once, for its own state, and cleared', async () => {
    const cookie = (await started()).split(';')[0]!;
    const cookies = new SessionCookies(request(cookie));
    expect(await takeTransaction(cookies, 'state-1')).toEqual(T);
    expect(lines(cookies)).toEqual([expect.stringMatching(/^tsb_oidc=; Max-Age=0; /)]);
  });

  it('is left for its own sign-in when another state comes back', async () => {
    const cookie = (await started()).split(';')[0]!;
    const cookies = new SessionCookies(request(cookie));
    expect(await takeTransaction(cookies, 'state-of-another-tab')).toBeNull();
    expect(lines(cookies)).toEqual([]);
  });

  it('is nothing, and cleared, when it does not open (tampered, foreign, under another secret)', async () => {
    const cookie = (await started()).split(';')[0]!;
    // One character of the seal's HMAC changed.
    const tampered = cookie.slice(0, -6) + (cookie.at(-6) === 'A' ? 'B' : 'A') + cookie.slice(-5);
    for (const value of [tampered, 'tsb_oidc=not-a-seal']) {
      const cookies = new SessionCookies(request(value));
      expect(await takeTransaction(cookies, 'state-1')).toBeNull();
      expect(lines(cookies)).toEqual([expect.stringMatching(/^tsb_oidc=; Max-Age=0; /)]);
    }
    expect(await takeTransaction(new SessionCookies(request()), 'state-1')).toBeNull();
  });
});
