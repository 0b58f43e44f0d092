import { sealData, unsealData } from 'iron-session';
import { describe, expect, it } from 'vitest';
import { SealedSessionCache } from '@/lib/server/auth/sealed-sessions';
import { reportedBrokenSeals } from '../helpers/broken-seals';

const passwords = { '1': 'unit-test-session-secret-0123456789-abcdef' };
const data = { sid: 's1', clientId: 'demo-client', clientSecret: 'demo-secret', createdAt: 1, lastSeenAt: 2 };

// A real seal (Date is not faked in this file) and one under a password id the cache does not have.
const seal = await sealData(data, { password: passwords, ttl: 3600 });
const notOurs = ['Fe26.2', '2', ...seal.split('*').slice(2)].join('*');

function counted() {
  const calls = { n: 0 };
  const unseal = (seal: string, options: { password: Record<string, string>; ttl: number }) => {
    calls.n++;
    return unsealData<Record<string, unknown>>(seal, options);
  };
  return { calls, unseal };
}

describe('sealed session cache', () => {
  it('opens a cookie once and serves the same data after, as independent copies', async () => {
    const { calls, unseal } = counted();
    const cache = new SealedSessionCache(passwords, 3600, Date.now, unseal);
    const seal = await sealData(data, { password: passwords, ttl: 3600 });
    const first = await cache.open<typeof data>(seal);
    first.clientId = 'changed by a caller';
    const second = await cache.open<typeof data>(seal);
    expect(second).toEqual(data);
    expect(calls.n).toBe(1);
  });

  it('opens nothing from a missing, tampered or foreign cookie, and does not keep failures', async () => {
    const { calls, unseal } = counted();
    const cache = new SealedSessionCache(passwords, 3600, Date.now, unseal);
    const seal = await sealData(data, { password: passwords, ttl: 3600 });
    const foreign = await sealData(data, { password: { '1': 'another-secret-another-secret-0123456789' }, ttl: 3600 });
    const tampered = seal.replace(
      /\*([^*]+)\*(\d+)\*/,
      (_m, enc: string, exp: string) => `*${enc.slice(0, -2)}AA*${exp}*`,
    );
    expect(await cache.open(undefined)).toEqual({});
    expect(await cache.open('')).toEqual({});
    expect(await cache.open(tampered)).toEqual({});
    expect(await cache.open(foreign)).toEqual({});
    expect(await cache.open(foreign)).toEqual({});
    expect(calls.n).toBe(3);
  });

  it.each([...reportedBrokenSeals(seal), ['a password id that is not ours', notOurs]])(
    'a cookie with %s opens nothing and throws nothing, before any crypto',
    async (_what, value) => {
      const { calls, unseal } = counted();
      const cache = new SealedSessionCache(passwords, 3600, Date.now, unseal);
      await expect(cache.open(value)).resolves.toEqual({});
      expect(calls.n).toBe(0);
      expect(await cache.open(seal)).toEqual(data);
    },
  );

  it('an error while unsealing is no session, not a failure', async () => {
    const unseal = () => Promise.reject(new TypeError('the crypto went wrong'));
    const cache = new SealedSessionCache(passwords, 3600, Date.now, unseal);
    const seal = await sealData(data, { password: passwords, ttl: 3600 });
    await expect(cache.open(seal)).resolves.toEqual({});
  });

  it('forgets an entry at the expiry written in the seal', async () => {
    const { calls, unseal } = counted();
    let now = Date.now();
    const cache = new SealedSessionCache(passwords, 3600, () => now, unseal);
    const seal = await sealData(data, { password: passwords, ttl: 3600 });
    const expiry = Number(seal.split('*')[5]);
    await cache.open(seal);
    now = expiry - 1;
    await cache.open(seal);
    expect(calls.n).toBe(1);
    now = expiry;
    await cache.open(seal);
    expect(calls.n).toBe(2);
  });

  it('stays bounded: the oldest cookie goes first', async () => {
    // The bound is the cache's own; opening 1,001 real seals would only time the crypto (about 2 s). The seals
    // here have the exact iron layout (the cache refuses any other before unsealing), and the injected unseal opens them.
    const expiry = Date.now() + 3_600_000;
    const salt = (i: number) => i.toString(16).padStart(64, '0');
    const [iv, block, hmac] = ['A'.repeat(22), 'A'.repeat(22), 'A'.repeat(43)];
    const seals = Array.from(
      { length: 1001 },
      (_, i) => `Fe26.2*1*${salt(i)}*${iv}*${block}*${expiry}*${salt(i)}*${hmac}~2`,
    );
    let opened = 0;
    const unseal = async (seal: string) => (opened++, { ...data, sid: seal });
    const cache = new SealedSessionCache(passwords, 3600, Date.now, unseal);
    for (const seal of seals) await cache.open(seal);
    expect(opened).toBe(1001);
    expect(await cache.open(seals[1000])).toMatchObject({ sid: seals[1000] });
    expect(opened).toBe(1001);
    await cache.open(seals[0]);
    expect(opened).toBe(1002);
  });
});
