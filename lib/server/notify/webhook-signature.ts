import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a webhook request is signed (the scheme GitHub and Stripe use): `X-Signature-Timestamp` carries the unix
 * seconds it was sent at, `X-Signature-256` is `sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under
 * the webhook's secret. The timestamp is inside the signature, so a receiver that refuses old timestamps refuses
 * a replay of a captured request after its window; within the window, the payload's event id tells repeats apart.
 * Plain Node (no server-only): receivers and tests copy or import it as it is.
 */
export const SIGNATURE_HEADER = 'X-Signature-256';
export const TIMESTAMP_HEADER = 'X-Signature-Timestamp';

const hmac = (secret: string, timestamp: string, body: string | Buffer) =>
  createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest('hex');

/** The two headers of a request carrying `body`, sent at `nowMs`. */
export function signWebhook(
  secret: string,
  body: string | Buffer,
  nowMs: number,
): Record<typeof TIMESTAMP_HEADER | typeof SIGNATURE_HEADER, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `sha256=${hmac(secret, timestamp, body)}` } as Record<
    typeof TIMESTAMP_HEADER | typeof SIGNATURE_HEADER,
    string
  >;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; problem: string };

/**
 * A receiver's check of a request: the signature over the raw body as received (not re-serialised JSON) and
 * a timestamp within `windowS` seconds of `nowMs` either way. `headers`: a fetch Headers or Node's
 * `req.headers`.
 */
export function verifyWebhookSignature(
  secret: string,
  headers: HeaderSource,
  body: string | Buffer,
  nowMs: number,
  windowS = 300,
): SignatureCheck {
  const timestamp = header(headers, TIMESTAMP_HEADER);
  const signature = header(headers, SIGNATURE_HEADER);
  if (!timestamp || !/^\d{1,12}$/.test(timestamp))
    return { ok: false, problem: `no ${TIMESTAMP_HEADER} in unix seconds` };
  if (!signature || !/^sha256=[0-9a-f]{64}$/i.test(signature))
    return { ok: false, problem: `no ${SIGNATURE_HEADER} of the form sha256=<hex>` };
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature.slice('sha256='.length).toLowerCase(), 'hex'))) {
    return { ok: false, problem: 'the signature does not match the body under this secret' };
  }
  const sentAt = Number(timestamp);
  if (Math.abs(nowMs / 1000 - sentAt) > windowS)
    return { ok: false, problem: `the timestamp is more than ${windowS} s from now (a replay, or a clock far off)` };
  return { ok: true, timestamp: sentAt };
}
