import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where a v2 listing stopped, and what it was a listing of. */
export type CursorState = {
  orgId: string;
  /** The query's bounds as the request gave them (normalized ms or null). */
  lower: number | null;
  upper: number | null;
  /** Last batch of the previous page (keyset pagination: stable while data is append-only). */
  afterMs: number;
  afterId: string;
};

/** Opaque, signed cursors: a changed byte or another organisation's cursor is refused, never trusted. */
export class CursorCodec {
  constructor(private secret: string) {}

  encode(state: CursorState): string {
    const body = Buffer.from(
      JSON.stringify([state.orgId, state.lower, state.upper, state.afterMs, state.afterId]),
    ).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(token: string): CursorState | null {
    const [body, sig, extra] = token.split('.');
    if (!body || !sig || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const [orgId, lower, upper, afterMs, afterId] = JSON.parse(Buffer.from(body, 'base64url').toString());
      return { orgId, lower, upper, afterMs, afterId };
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, 22);
  }
}
