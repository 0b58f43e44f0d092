import { AuthorizationResponseError, ClientError, ResponseBodyError } from 'openid-client';
import type { SsoFailure } from '@/lib/auth/sso-failures';
import { AppError } from '../../http/app-error';

/**
 * Errors of the sign-in flow as the reasons a person is told (lib/auth/sso-failures.ts). A refusal the flow
 * decided on carries its reason to the one place that answers it.
 */
export class SsoRefusal extends Error {
  constructor(
    readonly reason: SsoFailure,
    /** For the server log only: facts, never a token, code or secret. */
    readonly detail: Record<string, unknown> = {},
  ) {
    super(`single sign-on refused: ${reason}`);
  }
}

/** Network-level failures: nothing answered, or not in time (a TLS error included: the CA is not trusted). */
function unreachable(error: unknown): boolean {
  if (error instanceof ClientError && (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT')) return true;
  if (error instanceof ClientError && error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') {
    // A gateway or the provider itself failing (5xx), as opposed to a refusal in OAuth's own words.
    const cause = error.cause as Response | undefined;
    return cause instanceof Response && cause.status >= 500;
  }
  return error instanceof TypeError && error.message === 'fetch failed';
}

/** The code of what lies under a fetch failure (ECONNREFUSED, SELF_SIGNED_CERT_IN_CHAIN…), for the log. */
function causeCode(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at && depth < 5; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && !code.startsWith('OAUTH_')) return code;
  }
  return undefined;
}

/** What an error from the protocol steps means for the person, and what the operator's log should say. */
export function classify(error: unknown): SsoRefusal {
  if (error instanceof SsoRefusal) return error;
  // The people module's refusals: a disabled account, no organisation to join.
  if (error instanceof AppError && error.code === 'account_disabled') return new SsoRefusal('disabled');
  if (error instanceof AppError && error.code === 'not_member')
    return new SsoRefusal('no_organisation', { detail: error.message });
  if (unreachable(error)) return new SsoRefusal('unreachable', { cause: causeCode(error) ?? (error as Error).message });
  if (error instanceof AuthorizationResponseError) {
    return new SsoRefusal(error.error === 'access_denied' ? 'cancelled' : 'provider', {
      providerError: error.error.slice(0, 100),
    });
  }
  if (error instanceof ResponseBodyError) {
    // invalid_client: OIDC_CLIENT_ID or OIDC_CLIENT_SECRET does not match the provider's registration.
    return new SsoRefusal('failed', { providerError: error.error.slice(0, 100), status: error.status });
  }
  if (error instanceof ClientError) return new SsoRefusal('failed', { check: error.code ?? error.message });
  // Not the protocol's refusal but a fault (of ours, or of the database): the log gets its stack too.
  return new SsoRefusal('failed', { unexpected: error instanceof Error ? error.name : typeof error });
}
