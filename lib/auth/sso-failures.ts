/**
 * Why a single sign-on did not sign the person in (browser-safe: the sign-in page reads it from its URL,
 * `sso_error=<reason>`). Each is a sentence in the messages (`sso.failure.<reason>`) and, on the server, a
 * failed sign-in in the activity log.
 */
export const SSO_FAILURES = [
  'not_configured',
  'unreachable',
  'cancelled',
  'provider',
  'expired',
  'failed',
  'no_email',
  'unverified',
  'domain',
  'disabled',
  'no_organisation',
  'too_many',
] as const;

export type SsoFailure = (typeof SSO_FAILURES)[number];

export const isSsoFailure = (value: unknown): value is SsoFailure => SSO_FAILURES.includes(value as SsoFailure);

/** The sign-in page's parameter naming the failure. */
export const SSO_ERROR_PARAM = 'sso_error';
