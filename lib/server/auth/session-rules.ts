/** The request header in which proxy.ts hands a page's query string on to layouts (a client's own is replaced). */
export const PAGE_SEARCH_HEADER = 'x-tsb-page-search';

/** Name of the sealed session cookie over plain http (the demo, tests); read by proxy.ts, sealed by session.ts. */
export const SESSION_COOKIE = 'tsb_session';
/**
 * Its name over https. A browser keeps a `__Host-` cookie only from a Secure answer of this very host, with
 * `Path=/` and no `Domain`, so a sibling subdomain cannot plant or overwrite it (it can a plain `tsb_session`).
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

type RequestLike = { headers: Pick<Headers, 'get'>; url?: string };

/**
 * The scheme the app is reached by: the first `X-Forwarded-Proto` entry (a TLS-terminating proxy in front;
 * Next.js fills that header from the socket when it is absent, so a page learns it from `headers()`), else
 * the URL's own, else http.
 */
export function requestScheme({ headers, url }: RequestLike): string {
  const forwarded = headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return forwarded ?? (url ? new URL(url).protocol.replace(':', '') : 'http');
}

/** Whether the app is reached over https: the cookie is then Secure and named `__Host-tsb_session`. */
export const isHttps = (request: RequestLike): boolean => requestScheme(request) === 'https';

/** The session cookie's name for this request: only this one is read, so over https a planted `tsb_session` is ignored. */
export const sessionCookieName = (request: RequestLike) => (isHttps(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/**
 * What the sealed cookie carries: the id of the server's session row, and when it began (a seal older than the
 * absolute lifetime is refused before any database read). Nothing of the service, nothing of the person.
 */
export type SessionSeal = { sid: string; createdAt: number };

export type SessionLimits = { ttlS: number; idleS: number };

/**
 * Writing the last-seen time on every request would be a write per request: once a minute is precise enough,
 * or a quarter of the idle timeout when that is shorter, so activity always slides it in time.
 */
export function touchAfterMs(limits: SessionLimits): number {
  return Math.min(60_000, (limits.idleS * 1000) / 4);
}

/** Every field there with its type: a seal proves who wrote it, not that an older version wrote this shape. */
export function isSeal(data: Partial<SessionSeal>): data is SessionSeal {
  return typeof data.sid === 'string' && data.sid !== '' && Number.isSafeInteger(data.createdAt) && data.createdAt! > 0;
}

export type SessionVerdict = 'live' | 'missing' | 'expired' | 'idle' | 'revoked' | 'disabled';

/** What the server knows of a session (lib/server/auth/session-store.ts), as far as judging it goes. */
export type SessionFacts = {
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  revoked: boolean;
  disabled: boolean;
};

/**
 * The server's record decides: the person disabled (said as such: they should know why), revoked (signed
 * out, signed out by the person elsewhere or by an administrator), past its end (the shorter of its own and today's SESSION_TTL_S, so
 * that lowering the setting shortens sessions already running), idle for too long.
 */
export function judgeSession(facts: SessionFacts | null, limits: SessionLimits, now: number): SessionVerdict {
  if (!facts) return 'missing';
  if (facts.disabled) return 'disabled';
  if (facts.revoked) return 'revoked';
  if (now >= Math.min(facts.expiresAt, facts.createdAt + limits.ttlS * 1000)) return 'expired';
  if (now >= facts.lastSeenAt + limits.idleS * 1000) return 'idle';
  return 'live';
}

export function needsTouch(lastSeenAt: number, limits: SessionLimits, now: number): boolean {
  return now - lastSeenAt >= touchAfterMs(limits);
}
