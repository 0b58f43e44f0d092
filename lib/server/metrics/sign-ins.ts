import 'server-only';
import type { SsoFailure } from '@/lib/auth/sso-failures';
import { metrics } from './registry';

/**
 * How a sign-in ended: in, credentials refused, too many attempts, a request we refuse (bad input, foreign
 * origin), the identity service away, or a fault of ours.
 */
export type SignInResult = 'success' | 'refused' | 'throttled' | 'invalid' | 'unavailable' | 'error';

export function countSignIn(method: string, result: SignInResult): void {
  metrics().signIns.inc({ method, result });
}

/** A sign-in's answer as its result. */
export function signInResultOf(status: number): SignInResult {
  if (status < 300) return 'success';
  if (status === 401) return 'refused';
  if (status === 429) return 'throttled';
  if (status < 500) return 'invalid';
  return status === 502 || status === 503 || status === 504 ? 'unavailable' : 'error';
}

/**
 * A sign-in route (`method`: how people prove who they are, e.g. `client_credentials`), counted by the result
 * its answer tells. Wraps what route() returns, so its error table has spoken.
 */
export function countSignIns(
  method: string,
  handler: (request: Request) => Promise<Response>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await handler(request);
    countSignIn(method, signInResultOf(response.status));
    return response;
  };
}

/** The sessions signed in and not ended, as last counted. */
export function setActiveSessions(count: number): void {
  metrics().activeSessions.set(count);
}

/**
 * Where `sessions_active` is counted at every scrape: the session store registers its count of live rows
 * (instrumentation.ts), so every instance sharing a database reports the same number.
 */
export function countActiveSessionsWith(count: () => Promise<number>): void {
  (globalThis as { __countActiveSessions?: () => Promise<number> }).__countActiveSessions = count;
}

/** A single sign-on's end as a result: a refusal the person or the provider caused, or trouble on the way. */
export function ssoSignInResult(reason: SsoFailure | null): SignInResult {
  if (reason === null) return 'success';
  if (reason === 'too_many') return 'throttled';
  if (reason === 'unreachable') return 'unavailable';
  if (reason === 'failed') return 'error';
  if (reason === 'not_configured') return 'invalid';
  return 'refused';
}
