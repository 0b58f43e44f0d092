/**
 * Header values shared by next.config.mjs, which adds them to everything Next serves, and
 * lib/server/http/unroutable-methods.ts, which answers the few requests Next cannot route before Next sees them.
 * Plain JavaScript so that next.config.mjs can import it.
 */

/** On every answer, static files included. */
export const SECURITY_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];

/** The API answers data, never a document to render: nothing may load or frame from it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * Two years, subdomains included (they are the operator's hosts under this app's name). No `preload`: listing
 * a domain in the browsers' preload list binds the whole registrable domain for months and cannot be taken
 * back by a deploy, so it is the operator's decision, made at their proxy, not this app's.
 */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * `X-Forwarded-Proto` whose first entry is https: a TLS-terminating proxy in front (`next start` serves plain
 * http only). A regex as next.config's `has` takes it: Next anchors it at both ends. Browsers ignore HSTS
 * received over http, so a client that forges the header over http gains nothing.
 */
export const FORWARDED_HTTPS = 'https\\s*(?:,.*)?';
