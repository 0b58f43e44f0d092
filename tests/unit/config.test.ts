import { describe, expect, it, vi } from 'vitest';
import { sessionKeyId } from '@/lib/server/auth/session-keys';
import { loadConfigForTest as load } from '@/lib/server/config';

const base = { BATCH_API_BASE_URL: 'http://127.0.0.1:4010', SESSION_SECRET: 's'.repeat(32) };

describe('configuration, validated once with the bad variable named', () => {
  it('has sensible defaults', () => {
    expect(load(base)).toMatchObject({ version: 'v2', sessionTtlS: 43_200, sessionIdleS: 1800, timeoutMs: 15_000, demo: false });
    expect(load(base)).toMatchObject({ signInPerIp: 30, signInFailuresPerIp: 10, signInAuthCallsPerClient: 2, trustedProxyHops: 0 });
    expect(load({ ...base, TRUSTED_PROXY_HOPS: '2' }).trustedProxyHops).toBe(2);
  });

  it('starts range loads at 8 requests in flight and lets them grow to 32; an unset most follows a higher start', () => {
    expect(load(base)).toMatchObject({ concurrency: 8, maxConcurrency: 32 });
    expect(load({ ...base, BATCH_API_CONCURRENCY: '4', BATCH_API_MAX_CONCURRENCY: '4' })).toMatchObject({ concurrency: 4, maxConcurrency: 4 });
    expect(load({ ...base, BATCH_API_CONCURRENCY: '32' })).toMatchObject({ concurrency: 32, maxConcurrency: 32 });
    expect(() => load({ ...base, BATCH_API_CONCURRENCY: '12', BATCH_API_MAX_CONCURRENCY: '10' })).toThrow(/must be at least BATCH_API_CONCURRENCY \(12\)/);
  });

  it('keeps settings in the embedded database under the working directory, or in PostgreSQL when DATABASE_URL is set', () => {
    expect(load(base)).toMatchObject({ databaseUrl: undefined, settingsDataDir: `${process.cwd()}/.data/settings` });
    expect(load({ ...base, SETTINGS_DATA_DIR: '/var/lib/dashboard' }).settingsDataDir).toBe('/var/lib/dashboard');
    expect(load({ ...base, DATABASE_URL: 'postgresql://app@db:5432/dash' }).databaseUrl).toBe('postgresql://app@db:5432/dash');
  });

  it.each([
    [{ BATCH_API_BASE_URL: undefined }, 'BATCH_API_BASE_URL'],
    [{ BATCH_API_BASE_URL: 'ftp://x' }, 'BATCH_API_BASE_URL'],
    [{ BATCH_API_VERSION: 'v3' }, 'BATCH_API_VERSION'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ SESSION_TTL_S: '-5' }, 'SESSION_TTL_S'],
    [{ SESSION_IDLE_S: 'soon' }, 'SESSION_IDLE_S'],
    [{ SESSION_SECRET_PREVIOUS: 'short' }, 'SESSION_SECRET_PREVIOUS'],
    [{ TRUSTED_PROXY_HOPS: '-1' }, 'TRUSTED_PROXY_HOPS'],
    [{ TRUSTED_PROXY_HOPS: 'one' }, 'TRUSTED_PROXY_HOPS'],
    [{ SIGNIN_FAILURES_PER_IP: '0' }, 'SIGNIN_FAILURES_PER_IP'],
    [{ SIGNIN_AUTH_CALLS_PER_CLIENT: '1.5' }, 'SIGNIN_AUTH_CALLS_PER_CLIENT'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'db:5432' }, 'DATABASE_URL'],
    [{ BATCH_API_MAX_CONCURRENCY: '33' }, 'BATCH_API_MAX_CONCURRENCY'],
    [{ BATCH_API_MAX_CONCURRENCY: 'many' }, 'BATCH_API_MAX_CONCURRENCY'],
    [{ BATCH_API_CONCURRENCY: '12', BATCH_API_MAX_CONCURRENCY: '10' }, 'BATCH_API_MAX_CONCURRENCY'],
  ])('names the variable in %j', (override, name) => {
    expect(() => load({ ...base, ...override })).toThrow(new RegExp(`Invalid configuration: ${name}`));
  });

  it('requires SESSION_SECRET in production, generates one loudly in the demo', () => {
    expect(() => load({ ...base, SESSION_SECRET: undefined, NODE_ENV: 'production' })).toThrow(/SESSION_SECRET is required/);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const config = load({ ...base, SESSION_SECRET: undefined, NODE_ENV: 'production', DASHBOARD_DEMO: '1' });
    expect(Object.values(config.sessionPasswords)[0]!.length).toBeGreaterThanOrEqual(32);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('SESSION_SECRET is not set'));
    warn.mockRestore();
  });

  it('keeps previous secrets for unsealing, each under an id taken from the secret, never from its place', () => {
    const previous = 'p'.repeat(32);
    const config = load({ ...base, SESSION_SECRET_PREVIOUS: previous });
    expect(config.sessionPasswords).toEqual({ [sessionKeyId(previous)]: previous, [sessionKeyId(base.SESSION_SECRET)]: base.SESSION_SECRET });
    expect(config.sessionSecret).toBe(base.SESSION_SECRET);
    // The same secret has the same id as the current one or as a previous one, on any instance.
    expect(load({ ...base, SESSION_SECRET: previous, SESSION_SECRET_PREVIOUS: base.SESSION_SECRET }).sessionPasswords).toEqual(config.sessionPasswords);
  });

  it('says so when the removed SIGNIN_FAILURES_PER_CLIENT is still set, instead of ignoring it in silence', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    load({ ...base, SIGNIN_FAILURES_PER_CLIENT: '10' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('SIGNIN_FAILURES_PER_CLIENT is no longer read'));
    warn.mockClear();
    load(base);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
