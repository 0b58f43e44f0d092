import { describe, expect, it } from 'vitest';
import * as session from '@/app/api/session/route';
import { PEER_ADDRESS_HEADER } from '@/lib/server/peer-address';
import { bffForFile, DEMO, detailOf, request, sessionCookieOf } from '../helpers/bff';
import { control } from '../helpers/sandbox';

const OTHER = { clientId: 'other-client', clientSecret: 'other-secret' };

// Limits an operator could set, small enough for a quick test: 2 failures per address (the second slowed by
// 0.5 s); 1000 auth calls a second per client ID, since 50 sequential failures at the default 2 a
// second would take 25 s (the queue has tests of its own in tests/unit/sign-in-throttle.test.ts).
const sandbox = bffForFile({ SIGNIN_FAILURES_PER_IP: '2', SIGNIN_AUTH_CALLS_PER_CLIENT: '1000' });

/**
 * A sign-in as the route handler receives it from a client at `address` that sent `forwardedFor`: the peer
 * hook (lib/server/peer-address.ts) writes the socket address, and Next.js writes X-Forwarded-For from it
 * when the client sent none.
 */
function signIn(address: string, credentials = DEMO, forwardedFor = address) {
  const headers = { [PEER_ADDRESS_HEADER]: address, 'x-forwarded-for': forwardedFor };
  return session.POST(request('/api/session', { method: 'POST', json: credentials, headers }));
}

describe('sign-in throttle through the route (real sandbox)', () => {
  it('50 failures for one client ID from 50 addresses, then the right secret from a fresh address signs in', async () => {
    for (let i = 1; i <= 50; i++) {
      const response = await signIn(`198.51.100.${i}`, { ...DEMO, clientSecret: `guess-${i}` });
      expect(response.status).toBe(401);
    }
    const right = await signIn('192.0.2.1');
    expect(right.status).toBe(204);
    expect(sessionCookieOf(right)).toBeDefined();
    // Each of the 51 attempts asked the service: none was refused by a lock.
    expect((await control(sandbox(), 'GET', '/_sandbox/stats')).authRequests).toBe(51);
  });

  it('counts one socket address once, whatever X-Forwarded-For the client sends: slowed, then 429 with Retry-After', async () => {
    const started = Date.now();
    for (let i = 1; i <= 2; i++) {
      const response = await signIn('203.0.113.5', { ...OTHER, clientSecret: `guess-${i}` }, `10.9.8.${i}`);
      expect(response.status).toBe(401);
    }
    // The second failure waited 0.5 s before the service was asked.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    const refused = await signIn('203.0.113.5', OTHER, '10.9.8.99');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(890);
    expect(await detailOf(refused)).toMatch(/^too many failed sign-ins from this address; try again in \d+ s$/);
    expect(sessionCookieOf(refused)).toBeUndefined();
    // Another address, same organisation, right secret: not held back by that address's failures.
    expect((await signIn('203.0.113.6', OTHER)).status).toBe(204);
  });

  it('answers a client ID named like an object property as any other (401, never a 5xx)', async () => {
    for (const [i, clientId] of ['__proto__', 'constructor', 'hasOwnProperty'].entries()) {
      const response = await signIn(`192.0.2.${50 + i}`, { clientId, clientSecret: 'x' });
      expect(response.status).toBe(401);
    }
  });
});
