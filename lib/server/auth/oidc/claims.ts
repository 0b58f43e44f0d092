import type { Role } from '../../people/roles';
import type { OidcSettings } from './settings';

/**
 * What the provider says about the person, read from the ID token's claims (and the userinfo answer where the
 * ID token left something out), the same way for Keycloak, Entra ID, Google Workspace and Okta. Pure: no I/O.
 */
export type SsoIdentity = {
  email: string;
  name: string;
  /** The role the claim gives, or undefined when no role claim is configured (roles are then kept in the app). */
  role: Role | undefined;
};

export type ClaimsRefusal = 'no_email' | 'unverified';

type Claims = Record<string, unknown>;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * The e-mail address: `email`, else (Entra ID, which often sends none) `preferred_username` or `upn` when they
 * hold an address. Refused when the provider says the address is not verified (`email_verified: false`, or
 * `"false"` from providers that send text); providers that send no such claim vouch for their own directory.
 */
export function emailOf(claims: Claims): { email: string } | { refused: ClaimsRefusal } {
  const email = [claims.email, claims.preferred_username, claims.upn]
    .map(text)
    .find((v) => v !== undefined && EMAIL.test(v));
  if (!email) return { refused: 'no_email' };
  if (email === text(claims.email) && (claims.email_verified === false || claims.email_verified === 'false')) {
    return { refused: 'unverified' };
  }
  return { email };
}

/** The display name: `name`, else given and family names, else the e-mail's local part. */
export function nameOf(claims: Claims, email: string): string {
  const joined = [text(claims.given_name), text(claims.family_name)].filter(Boolean).join(' ');
  return (text(claims.name) ?? (joined || email.slice(0, email.indexOf('@')))).slice(0, 200);
}

/**
 * The claim's value as a list: a claim name as the provider spells it (`groups`, `roles`,
 * `https://example.com/roles`), else a dotted path into nested claims (Keycloak's `realm_access.roles`).
 */
export function claimValues(claims: Claims, claim: string): string[] {
  let value: unknown = claims[claim];
  if (value === undefined && claim.includes('.')) {
    value = claim
      .split('.')
      .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Claims)[key] : undefined), claims);
  }
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return values.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
}

/** Admin when a value is an admin value, else editor when one is an editor value, else viewer (case ignored). */
export function roleOf(
  claims: Claims,
  settings: Pick<OidcSettings, 'roleClaim' | 'adminValues' | 'editorValues'>,
): Role | undefined {
  if (!settings.roleClaim) return undefined;
  const values = new Set(claimValues(claims, settings.roleClaim).map((v) => v.toLowerCase()));
  const any = (wanted: string[]) => wanted.some((w) => values.has(w.toLowerCase()));
  return any(settings.adminValues) ? 'admin' : any(settings.editorValues) ? 'editor' : 'viewer';
}

/** Whether an address's domain may join: any when no domains are configured. */
export function domainAllowed(email: string, allowedDomains: string[]): boolean {
  if (allowedDomains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return allowedDomains.includes(domain);
}

/** Whether the ID token lacks something the userinfo endpoint may add: the e-mail, or the role claim. */
export function needsUserInfo(claims: Claims, settings: Pick<OidcSettings, 'roleClaim'>): boolean {
  const email = emailOf(claims);
  if ('refused' in email && email.refused === 'no_email') return true;
  return settings.roleClaim !== undefined && claimValues(claims, settings.roleClaim).length === 0;
}

/** The person as the claims describe them, or why they cannot sign in. */
export function identityOf(claims: Claims, settings: OidcSettings): SsoIdentity | { refused: ClaimsRefusal } {
  const email = emailOf(claims);
  if ('refused' in email) return email;
  return { email: email.email, name: nameOf(claims, email.email), role: roleOf(claims, settings) };
}
