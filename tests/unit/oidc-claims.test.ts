import { describe, expect, it } from 'vitest';
import {
  claimValues,
  domainAllowed,
  emailOf,
  identityOf,
  nameOf,
  needsUserInfo,
  roleOf,
} from '@/lib/server/auth/oidc/claims';
import type { OidcSettings } from '@/lib/server/auth/oidc/settings';

const settings: OidcSettings = {
  issuer: 'https://login.example.com',
  clientId: 'dashboard',
  clientSecret: 'x',
  name: 'SSO',
  scopes: ['openid'],
  roleClaim: 'groups',
  adminValues: ['Dashboard-Admins'],
  editorValues: ['agronomists', 'qa'],
  allowedDomains: ['example.com'],
};

describe('the person the claims describe', () => {
  it('takes the e-mail from `email`, else (Entra ID) from `preferred_username` or `upn` when they hold an address', () => {
    expect(emailOf({ email: 'ada@example.com', email_verified: true })).toEqual({ email: 'ada@example.com' });
    expect(emailOf({ preferred_username: 'ada@example.com' })).toEqual({ email: 'ada@example.com' });
    expect(emailOf({ preferred_username: 'ada', upn: 'ada@example.com' })).toEqual({ email: 'ada@example.com' });
    expect(emailOf({ preferred_username: 'ada' })).toEqual({ refused: 'no_email' });
    expect(emailOf({})).toEqual({ refused: 'no_email' });
  });

  it('refuses an address the provider says is not verified (a boolean, or text from some providers), accepts one it says nothing about', () => {
    expect(emailOf({ email: 'ada@example.com', email_verified: false })).toEqual({ refused: 'unverified' });
    expect(emailOf({ email: 'ada@example.com', email_verified: 'false' })).toEqual({ refused: 'unverified' });
    expect(emailOf({ email: 'ada@example.com', email_verified: 'true' })).toEqual({ email: 'ada@example.com' });
    expect(emailOf({ email: 'ada@example.com' })).toEqual({ email: 'ada@example.com' });
  });

  it('names the person by `name`, else given and family name, else the address', () => {
    expect(nameOf({ name: ' Ada Lovelace ' }, 'ada@example.com')).toBe('Ada Lovelace');
    expect(nameOf({ given_name: 'Ada', family_name: 'Lovelace' }, 'ada@example.com')).toBe('Ada Lovelace');
    expect(nameOf({}, 'ada@example.com')).toBe('ada');
  });

  it('reads the role claim as a list or a single value, by name or by path', () => {
    expect(claimValues({ groups: ['a', 'b'] }, 'groups')).toEqual(['a', 'b']);
    expect(claimValues({ groups: 'a' }, 'groups')).toEqual(['a']);
    expect(claimValues({ realm_access: { roles: ['x'] } }, 'realm_access.roles')).toEqual(['x']);
    expect(claimValues({ 'https://example.com/roles': ['r'] }, 'https://example.com/roles')).toEqual(['r']);
    expect(claimValues({ groups: [{ id: 1 }, 2, null] }, 'groups')).toEqual(['2']);
    expect(claimValues({}, 'groups')).toEqual([]);
  });

  it('gives admin before editor before viewer, comparing values without regard to case', () => {
    expect(roleOf({ groups: ['qa', 'dashboard-admins'] }, settings)).toBe('admin');
    expect(roleOf({ groups: 'QA' }, settings)).toBe('editor');
    expect(roleOf({ groups: ['everyone'] }, settings)).toBe('viewer');
    expect(roleOf({}, settings)).toBe('viewer');
    // Without a role claim the dashboard keeps roles itself.
    expect(roleOf({ groups: ['dashboard-admins'] }, { ...settings, roleClaim: undefined })).toBeUndefined();
  });

  it('lets an allowed domain join, whatever its case; any domain when none are configured', () => {
    expect(domainAllowed('ada@Example.COM', ['example.com'])).toBe(true);
    expect(domainAllowed('ada@sub.example.com', ['example.com'])).toBe(false);
    expect(domainAllowed('ada@evil-example.com', ['example.com'])).toBe(false);
    expect(domainAllowed('ada@anything.test', [])).toBe(true);
  });

  it('asks userinfo only for what the ID token lacks', () => {
    expect(needsUserInfo({ email: 'a@example.com', groups: ['x'] }, settings)).toBe(false);
    expect(needsUserInfo({ groups: ['x'] }, settings)).toBe(true);
    expect(needsUserInfo({ email: 'a@example.com' }, settings)).toBe(true);
    expect(needsUserInfo({ email: 'a@example.com' }, { roleClaim: undefined })).toBe(false);
  });

  it('puts it together', () => {
    expect(identityOf({ email: 'ada@example.com', name: 'Ada', groups: ['agronomists'] }, settings)).toEqual({
      email: 'ada@example.com',
      name: 'Ada',
      role: 'editor',
    });
    expect(identityOf({ email: 'ada@example.com', email_verified: false }, settings)).toEqual({
      refused: 'unverified',
    });
  });
});
