import 'server-only';

/** Session ids that signed out, kept until the session would have expired anyway. */
export interface RevocationStore {
  revoke(sid: string, untilMs: number): Promise<void>;
  isRevoked(sid: string): Promise<boolean>;
}

export class MemoryRevocationStore implements RevocationStore {
  private entries = new Map<string, number>();

  constructor(private now: () => number = Date.now) {}

  async revoke(sid: string, untilMs: number) {
    this.prune();
    this.entries.set(sid, untilMs);
  }

  async isRevoked(sid: string) {
    const until = this.entries.get(sid);
    return until !== undefined && until > this.now();
  }

  private prune() {
    const now = this.now();
    for (const [sid, until] of this.entries) if (until <= now) this.entries.delete(sid);
  }
}
