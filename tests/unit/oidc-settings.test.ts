import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfigForTest as load } from '@/lib/server/config';

const base = { BATCH_API_BASE_URL: 'http://127.0.0.1:4010', SESSION_SECRET: 's'.repeat(32) };
const sso = {
  OIDC_ISSUER: 'https://login.example.com/realms/agro',
  OIDC_CLIENT_ID: 'dashboard',
  OIDC_CLIENT_SECRET: 'sso-secret',
};

afterEach(() => vi.restoreAllMocks());

describe('single sign-on settings (OIDC_*)', () => {
  it('is off when no OIDC_* variable is set, and on with issuer, client ID and secret, with defaults for the rest', () => {
    expect(load(base).oidc).toBeUndefined();
    expect(load({ ...base, ...sso }).oidc).toEqual({
      issuer: sso.OIDC_ISSUER,
      clientId: 'dashboard',
      clientSecret: 'sso-secret',
      name: 'SSO',
      scopes: ['openid', 'email', 'profile'],
      roleClaim: undefined,
      adminValues: [],
      editorValues: [],
      allowedDomains: [],
      organisation: undefined,
    });
  });

  it('reads the name, scopes, role claim and values, allowed domains and organisation', () => {
    const oidc = load({
      ...base,
      ...sso,
      OIDC_NAME: ' Keycloak ',
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_ROLE_CLAIM: 'groups',
      OIDC_ADMIN_VALUES: 'dashboard-admins, /it/admins',
      OIDC_EDITOR_VALUES: 'agronomists',
      OIDC_ALLOWED_DOMAINS: 'Example.com, @seeds.example.org',
      OIDC_ORGANISATION: 'demo-client',
    }).oidc;
    expect(oidc).toMatchObject({
      name: 'Keycloak',
      scopes: ['openid', 'email', 'profile', 'groups'],
      roleClaim: 'groups',
      adminValues: ['dashboard-admins', '/it/admins'],
      editorValues: ['agronomists'],
      allowedDomains: ['example.com', 'seeds.example.org'],
      organisation: 'demo-client',
    });
  });

  it('needs issuer, client ID and secret together, naming what is missing', () => {
    expect(() => load({ ...base, OIDC_ISSUER: sso.OIDC_ISSUER })).toThrow(
      /OIDC_CLIENT_ID is not set, but OIDC_ISSUER is/,
    );
    expect(() => load({ ...base, ...sso, OIDC_CLIENT_SECRET: undefined })).toThrow(/OIDC_CLIENT_SECRET is not set/);
    expect(() => load({ ...base, OIDC_NAME: 'Okta' })).toThrow(/OIDC_ISSUER is not set, but OIDC_NAME is/);
    // A blank value counts as unset, as for every variable.
    expect(load({ ...base, OIDC_ISSUER: '', OIDC_CLIENT_ID: '', OIDC_CLIENT_SECRET: '' }).oidc).toBeUndefined();
  });

  it.each([
    [{ OIDC_ISSUER: 'http://login.example.com' }, 'OIDC_ISSUER must be the https URL'],
    [{ OIDC_ISSUER: 'login.example.com' }, 'OIDC_ISSUER'],
    [{ OIDC_SCOPES: 'email profile' }, 'OIDC_SCOPES must include openid'],
    [{ OIDC_SCOPES: 'openid "email"' }, 'OIDC_SCOPES must be scope names'],
    [
      { OIDC_ALLOWED_DOMAINS: 'example.com, not a domain' },
      'OIDC_ALLOWED_DOMAINS must be a comma-separated list of e-mail domains',
    ],
    [{ OIDC_ORGANISATION: 'Demo Client' }, 'OIDC_ORGANISATION must be the slug'],
    [{ OIDC_ADMIN_VALUES: 'admins' }, 'OIDC_ROLE_CLAIM is not set'],
  ])('refuses %j, naming the variable', (override, message) => {
    expect(() => load({ ...base, ...sso, ...override })).toThrow(message);
  });

  it('never puts the client secret in an error', () => {
    expect(() =>
      load({ ...base, ...sso, OIDC_ISSUER: 'http://x.example', OIDC_CLIENT_SECRET: 'hunter2-secret' }),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });

  it('warns when Google lets anyone with a Google account join', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    load({ ...base, ...sso, OIDC_ISSUER: 'https://accounts.google.com' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('OIDC_ALLOWED_DOMAINS is not set'));
    warn.mockClear();
    load({ ...base, ...sso, OIDC_ISSUER: 'https://accounts.google.com', OIDC_ALLOWED_DOMAINS: 'example.com' });
    expect(warn).not.toHaveBeenCalledWith(expect.stringContaining('OIDC_ALLOWED_DOMAINS'));
  });
});
