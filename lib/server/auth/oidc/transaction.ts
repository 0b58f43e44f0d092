import 'server-only';
import { sealData } from 'iron-session';
import { getConfig } from '../../config';
import { SealedSessionCache } from '../sealed-sessions';
import { sealingPassword } from '../session-keys';
import type { SessionCookies } from '../sessions';
import { isHttps } from '../session-rules';

/**
 * One sign-in at the provider in progress: the state and nonce the answer must carry back, the PKCE verifier
 * only this browser knows, and where to go afterwards. It lives in a sealed (encrypted, signed) HttpOnly cookie
 * for ten minutes, so no server keeps it, and any instance can finish the sign-in; the callback clears it, so
 * a replayed callback finds none.
 */
export type Transaction = { state: string; nonce: string; verifier: string; next: string };

export const TRANSACTION_TTL_S = 600;
const COOKIE = 'tsb_oidc';
/** Over https: host-only, Secure, Path=/, so a sibling subdomain cannot plant one. */
const SECURE_COOKIE = `__Host-${COOKIE}`;

const cookieName = (request: Request) => (isHttps(request) ? SECURE_COOKIE : COOKIE);

const holder = globalThis as unknown as { __oidcTransactions?: SealedSessionCache };

/** Opens only our exact seal (see iron-seal.ts), never throws: a cookie is whatever the browser sends. */
function sealed(): SealedSessionCache {
  holder.__oidcTransactions ??= new SealedSessionCache(getConfig().sessionPasswords, TRANSACTION_TTL_S);
  return holder.__oidcTransactions;
}

/**
 * SameSite=Lax: the provider sends the person back with a top-level GET, which carries Lax cookies, while a
 * request another site makes in the background carries none.
 */
function line(request: Request, value: string, maxAgeS: number): string {
  const expires = new Date(maxAgeS > 0 ? Date.now() + maxAgeS * 1000 : 0).toUTCString();
  const secure = isHttps(request) ? '; Secure' : '';
  return `${cookieName(request)}=${value}; Max-Age=${maxAgeS}; Path=/; Expires=${expires}; HttpOnly${secure}; SameSite=Lax`;
}

export async function saveTransaction(cookies: SessionCookies, transaction: Transaction): Promise<void> {
  const seal = await sealData(transaction, {
    password: sealingPassword(getConfig().sessionSecret),
    ttl: TRANSACTION_TTL_S,
  });
  cookies.outgoing.headers.append('set-cookie', line(cookies.request, seal, TRANSACTION_TTL_S));
}

/**
 * The transaction this browser started for `state`, cleared as it is taken; null when there is none (expired,
 * tampered, never started here, already used). A cookie of another sign-in (a second tab's, begun later) is
 * left for that sign-in to finish.
 */
export async function takeTransaction(cookies: SessionCookies, state: string | null): Promise<Transaction | null> {
  const value = cookies.get(cookieName(cookies.request));
  if (value === undefined) return null;
  const data = await sealed().open<Transaction>(value);
  const complete = [data.state, data.nonce, data.verifier, data.next].every((v) => typeof v === 'string' && v !== '');
  if (complete && data.state !== state) return null;
  cookies.outgoing.headers.append('set-cookie', line(cookies.request, '', 0));
  sealed().forget(value);
  return complete ? (data as Transaction) : null;
}
