import { describe, expect, it } from 'vitest';
import * as session from '@/app/api/session/route';
import { PEER_ADDRESS_HEADER } from '@/lib/server/http/peer-address';
import { bffForFile, DEMO, detailOf, PEOPLE, request, sessionCookieOf, signInBody } from '../helpers/bff';

const OTHER = signInBody(PEOPLE.other.editor);

// Limits an operator could set, small enough for a quick test: 3 failures in a row per e-mail and address,
// 5 failures per address a day.
bffForFile({ SIGNIN_FAILURES_PER_ACCOUNT: '3', SIGNIN_FAILURES_PER_IP: '5' });

/**
 * A sign-in as the route handler receives it from a client at `address` that sent `forwardedFor`: the peer
 * hook (lib/server/http/peer-address.ts) writes the socket address, and Next.js writes X-Forwarded-For from it
 * when the client sent none.
 */
function signIn(address: string, credentials = DEMO, forwardedFor = address) {
  const headers = { [PEER_ADDRESS_HEADER]: address, 'x-forwarded-for': forwardedFor };
  return session.POST(request('/api/session', { method: 'POST', json: credentials, headers }));
}

describe('sign-in throttle through the route (the login recipe)', () => {
  it('many failures for one person from many addresses, then the right password from their own address signs in', async () => {
    for (let i = 1; i <= 12; i++) {
      const response = await signIn(`198.51.100.${i % 4}`, { ...DEMO, password: `guess number ${i}` });
      expect([401, 429]).toContain(response.status);
    }
    const right = await signIn('192.0.2.1');
    expect(right.status).toBe(204);
    expect(sessionCookieOf(right)).toBeDefined();
  });

  it('counts one socket address once, whatever X-Forwarded-For the client sends: 429 with Retry-After for that person from there', async () => {
    for (let i = 1; i <= 3; i++) {
      const response = await signIn('203.0.113.5', { ...OTHER, password: `guess number ${i}` }, `10.9.8.${i}`);
      expect(response.status).toBe(401);
    }
    const refused = await signIn('203.0.113.5', OTHER, '10.9.8.99');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(await detailOf(refused)).toBe(
      'email: too many failed sign-ins for this e-mail address from here; try again in 60 min',
    );
    expect(sessionCookieOf(refused)).toBeUndefined();
    // A colleague at the same address, and the same person from another address: not held back.
    expect((await signIn('203.0.113.5', signInBody(PEOPLE.other.admin))).status).toBe(204);
    expect((await signIn('203.0.113.6', OTHER)).status).toBe(204);
  });

  it('an address that fails for everyone waits for the day to end, whoever it signs in as', async () => {
    for (let i = 1; i <= 5; i++)
      expect(
        (await signIn('203.0.113.7', { email: `nobody${i}@example.org`, password: 'not a password' })).status,
      ).toBe(401);
    const refused = await signIn('203.0.113.7', signInBody(PEOPLE.drift.admin));
    expect([refused.status, await detailOf(refused)]).toEqual([
      429,
      'too many failed sign-ins from this address today; try again in 24 h',
    ]);
  });

  it('answers an e-mail named like an object property as any other (401, never a 5xx)', async () => {
    for (const [i, email] of ['__proto__', 'constructor', 'hasOwnProperty'].entries()) {
      const response = await signIn(`192.0.2.${50 + i}`, { email, password: 'x' });
      expect(response.status).toBe(401);
    }
  });
});
