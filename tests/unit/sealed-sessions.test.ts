import { sealData, unsealData } from 'iron-session';
import { describe, expect, it } from 'vitest';
import { SealedSessionCache } from '@/lib/server/sealed-sessions';

const passwords = { '1': 'unit-test-session-secret-0123456789-abcdef' };
const data = { sid: 's1', clientId: 'demo-client', clientSecret: 'demo-secret', createdAt: 1, lastSeenAt: 2 };

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
    const tampered = seal.replace(/\*([^*]+)\*(\d+)\*/, (_m, enc: string, exp: string) => `*${enc.slice(0, -2)}AA*${exp}*`);
    expect(await cache.open(undefined)).toEqual({});
    expect(await cache.open('')).toEqual({});
    expect(await cache.open(tampered)).toEqual({});
    expect(await cache.open(foreign)).toEqual({});
    expect(await cache.open(foreign)).toEqual({});
    expect(calls.n).toBe(3);
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
    // here have the iron layout the cache reads the expiry from, and the injected unseal opens them.
    const expiry = Date.now() + 3_600_000;
    const seals = Array.from({ length: 1001 }, (_, i) => `Fe26.2**salt${i}*iv*data*${expiry}*hmacSalt*hmac~2`);
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
