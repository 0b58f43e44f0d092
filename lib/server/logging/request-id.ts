import { randomUUID } from 'node:crypto';

/** What we accept as a caller's request id: a proxy's (nginx's `$request_id`: 32 hex digits), a UUID, a trace's. */
const VALID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The request id a line and the answer's `X-Request-Id` carry: the caller's when valid, else a new UUID. */
export function newRequestId(given: string | null | undefined): string {
  return given && VALID.test(given) ? given : randomUUID();
}
