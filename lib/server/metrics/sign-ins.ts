import 'server-only';
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
export function countSignIns(method: string, handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await handler(request);
    countSignIn(method, signInResultOf(response.status));
    return response;
  };
}

/** The sessions signed in and not ended: for the session store to report whenever it knows (a count it keeps). */
export function setActiveSessions(count: number): void {
  metrics().activeSessions.set(count);
}
