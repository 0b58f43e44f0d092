import { describe, expect, it, vi } from 'vitest';
import { sessionKeyId } from '@/lib/server/auth/session-keys';
import { loadConfigForTest as load } from '@/lib/server/config';

const base = {
  BATCH_API_BASE_URL: 'http://127.0.0.1:4010',
  SESSION_SECRET: 's'.repeat(32),
  CREDENTIALS_KEY: Buffer.alloc(32, 1).toString('base64'),
};

describe('configuration, validated once with the bad variable named', () => {
  it('has sensible defaults', () => {
    expect(load(base)).toMatchObject({
      version: 'v2',
      sessionTtlS: 43_200,
      sessionIdleS: 1800,
      timeoutMs: 15_000,
      demo: false,
    });
    expect(load(base)).toMatchObject({
      signInPerIp: 30,
      signInFailuresPerIp: 100,
      signInFailuresPerAccount: 10,
      trustedProxyHops: 0,
    });
    expect(load({ ...base, TRUSTED_PROXY_HOPS: '2' }).trustedProxyHops).toBe(2);
  });

  it('starts range loads at 8 requests in flight and lets them grow to 32; an unset most follows a higher start', () => {
    expect(load(base)).toMatchObject({ concurrency: 8, maxConcurrency: 32 });
    expect(load({ ...base, BATCH_API_CONCURRENCY: '4', BATCH_API_MAX_CONCURRENCY: '4' })).toMatchObject({
      concurrency: 4,
      maxConcurrency: 4,
    });
    expect(load({ ...base, BATCH_API_CONCURRENCY: '32' })).toMatchObject({ concurrency: 32, maxConcurrency: 32 });
    expect(() => load({ ...base, BATCH_API_CONCURRENCY: '12', BATCH_API_MAX_CONCURRENCY: '10' })).toThrow(
      /must be at least BATCH_API_CONCURRENCY \(12\)/,
    );
  });

  it('keeps settings in the embedded database under the working directory, or in PostgreSQL when DATABASE_URL is set', () => {
    expect(load(base)).toMatchObject({ databaseUrl: undefined, settingsDataDir: `${process.cwd()}/.data/settings` });
    expect(load({ ...base, SETTINGS_DATA_DIR: '/var/lib/dashboard' }).settingsDataDir).toBe('/var/lib/dashboard');
    expect(load({ ...base, DATABASE_URL: 'postgresql://app@db:5432/dash' }).databaseUrl).toBe(
      'postgresql://app@db:5432/dash',
    );
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
    [{ SIGNIN_FAILURES_PER_ACCOUNT: '1.5' }, 'SIGNIN_FAILURES_PER_ACCOUNT'],
    [{ CREDENTIALS_KEY: 'too-short' }, 'CREDENTIALS_KEY'],
    [{ CREDENTIALS_KEY_PREVIOUS: Buffer.alloc(16).toString('base64') }, 'CREDENTIALS_KEY_PREVIOUS'],
    [{ ADMIN_EMAIL: 'not-an-address', ADMIN_PASSWORD: 'a long enough password' }, 'ADMIN_EMAIL'],
    [{ ADMIN_EMAIL: 'admin@example.org', ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_EMAIL: 'admin@example.org' }, 'ADMIN_EMAIL and ADMIN_PASSWORD go together'],
    [{ BATCH_API_CLIENT_ID: 'acme' }, 'BATCH_API_CLIENT_ID, BATCH_API_CLIENT_SECRET and ORGANISATION_NAME go together'],
    [{ ORGANISATION_SLUG: 'Not A Slug' }, 'ORGANISATION_SLUG'],
    [{ OIDC_ISSUER: 'http://idp.example' }, 'OIDC_ISSUER'],
    [{ OIDC_ISSUER: 'https://idp.example' }, 'OIDC_CLIENT_ID is not set, but OIDC_ISSUER is'],
    [{ DATABASE_URL: 'mysql://db/x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'db:5432' }, 'DATABASE_URL'],
    [{ BATCH_API_MAX_CONCURRENCY: '33' }, 'BATCH_API_MAX_CONCURRENCY'],
    [{ BATCH_API_MAX_CONCURRENCY: 'many' }, 'BATCH_API_MAX_CONCURRENCY'],
    [{ BATCH_API_CONCURRENCY: '12', BATCH_API_MAX_CONCURRENCY: '10' }, 'BATCH_API_MAX_CONCURRENCY'],
  ])('names the variable in %j', (override, name) => {
    expect(() => load({ ...base, ...override })).toThrow(new RegExp(`Invalid configuration: ${name}`));
  });

  it('alerts: checks every 300 s unless WATCH_INTERVAL_S says (at least 5); webhooks stay off private addresses unless allowed; e-mail to a folder without SMTP_URL', () => {
    expect(load(base)).toMatchObject({
      alerts: { watchIntervalS: 300, allowPrivateWebhooks: false },
      mail: { smtpUrl: undefined, dir: `${process.cwd()}/.data/mail` },
    });
    expect(load({ ...base, WATCH_INTERVAL_S: '5', WEBHOOK_ALLOW_PRIVATE: '1' }).alerts).toEqual({
      watchIntervalS: 5,
      allowPrivateWebhooks: true,
    });
    expect(() => load({ ...base, WATCH_INTERVAL_S: '4' })).toThrow(
      'Invalid configuration: WATCH_INTERVAL_S must be at least 5 (seconds)',
    );
    expect(() => load({ ...base, WATCH_INTERVAL_S: 'often' })).toThrow(/^Invalid configuration: WATCH_INTERVAL_S /);
    expect(() => load({ ...base, WATCH_INTERVAL_S: '7.5' })).toThrow(
      'Invalid configuration: WATCH_INTERVAL_S must be a whole number of seconds',
    );
    expect(() => load({ ...base, WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(
      'Invalid configuration: WEBHOOK_ALLOW_PRIVATE must be 1 (allow) or 0',
    );
    expect(() => load({ ...base, SMTP_URL: 'http://mail.example.com' })).toThrow(
      'Invalid configuration: SMTP_URL must be an smtp:// or smtps:// URL',
    );
    expect(load({ ...base, SETTINGS_DATA_DIR: '/srv/dash/settings' }).mail.dir).toBe('/srv/dash/mail');
  });

  it('requires SESSION_SECRET in production, generates one loudly in the demo', () => {
    expect(() => load({ ...base, SESSION_SECRET: undefined, NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET is required/,
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const config = load({ ...base, SESSION_SECRET: undefined, NODE_ENV: 'production', DASHBOARD_DEMO: '1' });
    expect(Object.values(config.sessionPasswords)[0]!.length).toBeGreaterThanOrEqual(32);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('SESSION_SECRET is not set'));
    warn.mockRestore();
  });

  it('requires CREDENTIALS_KEY in production, generates one loudly elsewhere; older keys are known by a key id from their hash', () => {
    expect(() => load({ ...base, CREDENTIALS_KEY: undefined, NODE_ENV: 'production' })).toThrow(
      /CREDENTIALS_KEY is required in production/,
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(load({ ...base, CREDENTIALS_KEY: undefined }).credentialsKey.key).toHaveLength(32);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('CREDENTIALS_KEY is not set'));
    warn.mockRestore();
    const [old1, old2] = [Buffer.alloc(32, 2).toString('base64'), Buffer.alloc(32, 3).toString('base64')];
    const config = load({ ...base, CREDENTIALS_KEY_PREVIOUS: `${old1},${old2}` });
    const swapped = load({ ...base, CREDENTIALS_KEY_PREVIOUS: `${old2},${old1}` });
    expect(config.previousCredentialsKeys.map((k) => k.id).sort()).toEqual(
      swapped.previousCredentialsKeys.map((k) => k.id).sort(),
    );
    expect(config.credentialsKey.id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('reads provisioning and single sign-on, each only when all of its parts are there', () => {
    expect(load(base)).toMatchObject({
      provisioning: { organisation: undefined, admin: undefined, file: undefined },
      oidc: undefined,
    });
    const full = load({
      ...base,
      BATCH_API_CLIENT_ID: 'acme-client',
      BATCH_API_CLIENT_SECRET: 'acme-secret',
      ORGANISATION_NAME: 'Acme Seeds',
      ADMIN_EMAIL: 'it@acme.example',
      ADMIN_PASSWORD: 'correct horse battery',
      OIDC_ISSUER: 'https://login.acme.example',
      OIDC_CLIENT_ID: 'dashboard',
      OIDC_CLIENT_SECRET: 'oidc-secret',
      OIDC_NAME: 'Acme SSO',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ADMIN_VALUES: 'it, qa-leads',
    });
    expect(full.provisioning).toMatchObject({
      organisation: { clientId: 'acme-client', name: 'Acme Seeds' },
      admin: { email: 'it@acme.example' },
    });
    expect(full.oidc).toMatchObject({
      name: 'Acme SSO',
      scopes: ['openid', 'email', 'profile'],
      adminValues: ['it', 'qa-leads'],
      editorValues: [],
    });
  });

  it('keeps previous secrets for unsealing, each under an id taken from the secret, never from its place', () => {
    const previous = 'p'.repeat(32);
    const config = load({ ...base, SESSION_SECRET_PREVIOUS: previous });
    expect(config.sessionPasswords).toEqual({
      [sessionKeyId(previous)]: previous,
      [sessionKeyId(base.SESSION_SECRET)]: base.SESSION_SECRET,
    });
    expect(config.sessionSecret).toBe(base.SESSION_SECRET);
    // The same secret has the same id as the current one or as a previous one, on any instance.
    expect(
      load({ ...base, SESSION_SECRET: previous, SESSION_SECRET_PREVIOUS: base.SESSION_SECRET }).sessionPasswords,
    ).toEqual(config.sessionPasswords);
  });

  it('says so when a removed SIGNIN_FAILURES_PER_CLIENT or SIGNIN_AUTH_CALLS_PER_CLIENT is still set, instead of ignoring it in silence', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    load({ ...base, SIGNIN_FAILURES_PER_CLIENT: '10', SIGNIN_AUTH_CALLS_PER_CLIENT: '2' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('SIGNIN_FAILURES_PER_CLIENT is no longer read'));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('SIGNIN_AUTH_CALLS_PER_CLIENT is no longer read'));
    warn.mockClear();
    load(base);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
