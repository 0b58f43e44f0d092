import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as batches from '@/app/api/batches/route';
import * as session from '@/app/api/session/route';
import { everyPositionChanged, mutatedSeal, reportedBrokenSeals } from '../helpers/broken-seals';
import { bffForFile, DEMO, detailOf, request, sessionCookieOf } from '../helpers/bff';

// Session cookies that cannot be opened, through the real route handlers: "no session", never a 5xx.
bffForFile({ SIGNIN_ATTEMPTS_PER_IP: '100000' });

const signIn = async (cookie?: string) => {
  const response = await session.POST(request('/api/session', { method: 'POST', json: DEMO, cookie }));
  expect(response.status).toBe(204);
  return sessionCookieOf(response)!;
};
const whoAmI = (cookie: string) => session.GET(request('/api/session', { cookie }));
const answer = async (response: Response) => [
  response.status,
  response.status === 200 ? null : await detailOf(response),
];
const NOT_SIGNED_IN = [401, 'session: not signed in'];

describe('a session cookie that cannot be opened is no session', () => {
  it('each cookie of the report: 401 "not signed in" on every API; sign-in replaces it, sign-out clears it', async () => {
    const seal = (await signIn()).split('=')[1]!;
    for (const [what, value] of reportedBrokenSeals(seal)) {
      const cookie = `tsb_session=${value}`;
      expect(await answer(await whoAmI(cookie)), what).toEqual(NOT_SIGNED_IN);
      expect(await answer(await batches.GET(request('/api/batches', { cookie }))), what).toEqual(NOT_SIGNED_IN);
      const replaced = await signIn(cookie);
      expect(replaced, what).not.toBe(cookie);
      expect((await whoAmI(replaced)).status, what).toBe(200);
      const out = await session.DELETE(request('/api/session', { method: 'DELETE', cookie }));
      expect([out.status, sessionCookieOf(out)], what).toEqual([204, 'tsb_session=']);
    }
  });

  // Whatever a Cookie header can carry (no NUL, CR or LF, nothing above Latin-1), short and long, and strings cut like
  // a seal (eight parts between stars, then `~` and more) so that they reach past a mere count of the parts.
  const unit = fc
    .integer({ min: 1, max: 0xff })
    .filter((c) => c !== 10 && c !== 13)
    .map((c) => String.fromCharCode(c));
  const anyValue = fc.oneof(
    fc.string({ unit, maxLength: 200 }),
    fc.string({ unit, minLength: 200, maxLength: 5000 }),
    fc.string(),
    fc
      .tuple(fc.array(fc.string({ maxLength: 12 }), { minLength: 8, maxLength: 8 }), fc.string({ maxLength: 4 }))
      .map(([parts, v]) => `${parts.join('*')}~${v}`),
  );

  it('any string as the cookie value: 401 "not signed in" from a route, never a 5xx; sign-out still works', async () => {
    await fc.assert(
      fc.asyncProperty(anyValue, async (v) => {
        expect(await answer(await whoAmI(`tsb_session=${v}`))).toEqual(NOT_SIGNED_IN);
        expect(
          (await session.DELETE(request('/api/session', { method: 'DELETE', cookie: `tsb_session=${v}` }))).status,
        ).toBe(204);
      }),
      { numRuns: 300 },
    );
  });

  it('any string as the cookie value: sign-in works and replaces it', async () => {
    await fc.assert(
      fc.asyncProperty(anyValue, async (v) => {
        expect(await signIn(`tsb_session=${v}`)).toMatch(/^tsb_session=Fe26\.2\*/);
      }),
      { numRuns: 40 },
    );
  });

  it('only the untouched seal opens: every position changed, random changes, cuts and additions are refused', async () => {
    const cookie = await signIn();
    const seal = cookie.split('=')[1]!;
    for (const changed of everyPositionChanged(seal))
      expect(await answer(await whoAmI(`tsb_session=${changed}`)), changed).toEqual(NOT_SIGNED_IN);
    await fc.assert(
      fc.asyncProperty(mutatedSeal(seal), async (changed) => {
        expect(await answer(await whoAmI(`tsb_session=${changed}`))).toEqual(NOT_SIGNED_IN);
      }),
      { numRuns: 500 },
    );
    expect(await answer(await whoAmI(cookie))).toEqual([200, null]);
  });
});

it('the cookie holds the session id alone: no e-mail, password or client credential, and a small seal whatever was typed', async () => {
  const cookie = await signIn();
  const seal = decodeURIComponent(cookie.split('=')[1]!);
  expect(seal.length).toBeLessThan(400);
  for (const secret of [DEMO.email, DEMO.password, 'demo-client', 'demo-secret']) expect(seal).not.toContain(secret);
});
