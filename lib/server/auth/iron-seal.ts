import 'server-only';

/**
 * The one form iron-session 8.0 writes a seal in (iron-webcrypto's `seal` with its defaults, then `~2`):
 *
 *   Fe26.2*<password id>*<salt>*<iv>*<encrypted>*<expiry>*<hmac salt>*<hmac>~2
 *
 * salts: 256 random bits as lower-case hex; iv: 16 bytes, encrypted: whole AES-CBC blocks, hmac: a SHA-256 digest,
 * each in unpadded base64url; expiry: milliseconds, a positive integer (our seals always have a ttl).
 *
 * iron-session and iron-webcrypto are lenient readers: they throw on some malformed seals (a wrong prefix, a
 * non-numeric expiry, `__proto__` as password id: a 500 for a cookie anyone can send), and ignore what follows
 * `~2`. A seal is therefore read only in exactly this form, under a password id of ours, or not at all: nothing
 * else reaches the crypto, and every seal has one spelling.
 */
const MAX_SEAL_LENGTH = 4096; // a browser keeps no longer cookie
const PREFIX = 'Fe26.2';
const VERSION = '~2';
const PASSWORD_ID = /^\w+$/;
const SALT = /^[0-9a-f]{64}$/;
const EXPIRY = /^[1-9][0-9]{0,15}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The byte length of unpadded base64url text, if it is the one spelling of those bytes (unused bits zero). */
function base64urlBytes(text: string): number | null {
  if (!BASE64URL.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes.length : null;
}

/** The expiry (ms) of a seal in iron-session's exact form under one of `passwordIds`, or null for anything else. */
export function canonicalSealExpiry(seal: string, passwordIds: ReadonlySet<string>): number | null {
  if (seal.length > MAX_SEAL_LENGTH || !seal.endsWith(VERSION)) return null;
  const parts = seal.slice(0, -VERSION.length).split('*');
  if (parts.length !== 8) return null;
  const [prefix, passwordId, salt, iv, encrypted, expiry, hmacSalt, hmac] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (prefix !== PREFIX || !PASSWORD_ID.test(passwordId) || !passwordIds.has(passwordId)) return null;
  if (!SALT.test(salt) || !SALT.test(hmacSalt) || !EXPIRY.test(expiry)) return null;
  if (base64urlBytes(iv) !== 16 || base64urlBytes(hmac) !== 32) return null;
  const blocks = base64urlBytes(encrypted);
  if (blocks === null || blocks === 0 || blocks % 16 !== 0) return null;
  const expiresAt = Number(expiry);
  return Number.isSafeInteger(expiresAt) ? expiresAt : null;
}
