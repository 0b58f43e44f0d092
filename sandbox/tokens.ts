import { randomBytes } from 'node:crypto';

export type TokenCheck = { ok: true; orgId: string } | { ok: false; detail: string };

type Grant = { orgId: string; version: string; expiresAt: number };

/** Bearer tokens of the sandbox: opaque, scoped to one API version, expiring after a TTL. */
export class TokenStore {
  private grants = new Map<string, Grant>();
  issued = 0;

  constructor(
    public ttlS: number,
    private now: () => number = () => Date.now(),
  ) {}

  issue(orgId: string, version: string): { token: string; expiresIn: number } {
    this.prune();
    const token = randomBytes(32).toString('base64url');
    this.grants.set(token, { orgId, version, expiresAt: this.now() + this.ttlS * 1000 });
    this.issued++;
    return { token, expiresIn: this.ttlS };
  }

  check(authorization: string | undefined, version: string): TokenCheck {
    if (!authorization) return { ok: false, detail: 'Not authenticated: missing Authorization header' };
    const m = /^Bearer ([^\s]+)$/i.exec(authorization.trim());
    if (!m) return { ok: false, detail: 'Not authenticated: Authorization must be "Bearer <token>"' };
    const grant = this.grants.get(m[1]!);
    if (!grant || grant.version !== version) return { ok: false, detail: 'Invalid access token' };
    if (grant.expiresAt <= this.now()) {
      this.grants.delete(m[1]!);
      return { ok: false, detail: 'Access token expired' };
    }
    return { ok: true, orgId: grant.orgId };
  }

  revokeAll(): number {
    const n = this.grants.size;
    this.grants.clear();
    return n;
  }

  private prune() {
    if (this.grants.size < 1000) return;
    const now = this.now();
    for (const [token, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(token);
  }
}
