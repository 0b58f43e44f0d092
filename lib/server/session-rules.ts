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

/** What the sealed cookie carries. The access token is not here: it stays in the server's token cache. */
export type SessionData = {
  sid: string;
  clientId: string;
  clientSecret: string;
  /** Sign-in time (ms): the absolute lifetime counts from here. */
  createdAt: number;
  /** Last authenticated request (ms): the idle timeout counts from here. */
  lastSeenAt: number;
};

export type SessionLimits = { ttlS: number; idleS: number };

/**
 * Touching the cookie on every request would re-seal it constantly: once a minute is precise enough,
 * or a quarter of the idle timeout when that is shorter, so activity always slides it in time.
 */
export function touchAfterMs(limits: SessionLimits): number {
  return Math.min(60_000, (limits.idleS * 1000) / 4);
}

export type SessionVerdict = 'live' | 'missing' | 'expired' | 'idle';

/** Every field there with its type: a seal proves who wrote it, not that an older version wrote this shape. */
function isComplete(data: Partial<SessionData>): data is SessionData {
  const texts = [data.sid, data.clientId, data.clientSecret];
  const times = [data.createdAt, data.lastSeenAt];
  return texts.every((t) => typeof t === 'string' && t !== '') && times.every((t) => Number.isSafeInteger(t) && t! > 0);
}

export function judgeSession(data: Partial<SessionData>, limits: SessionLimits, now: number): SessionVerdict {
  if (!isComplete(data)) return 'missing';
  if (now >= data.createdAt + limits.ttlS * 1000) return 'expired';
  if (now >= data.lastSeenAt + limits.idleS * 1000) return 'idle';
  return 'live';
}

export function needsTouch(data: SessionData, limits: SessionLimits, now: number): boolean {
  return now - data.lastSeenAt >= touchAfterMs(limits);
}
