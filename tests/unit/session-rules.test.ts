import { describe, expect, it } from 'vitest';
import { isSeal, judgeSession, needsTouch, touchAfterMs, type SessionFacts } from '@/lib/server/auth/session-rules';

const limits = { ttlS: 12 * 3600, idleS: 30 * 60 };
const t0 = Date.UTC(2026, 0, 1);
const session: SessionFacts = {
  createdAt: t0,
  lastSeenAt: t0,
  expiresAt: t0 + 12 * 3600_000,
  revoked: false,
  disabled: false,
};

describe('session lifetime rules', () => {
  it('is live within both limits', () => {
    expect(judgeSession(session, limits, t0 + 29 * 60_000)).toBe('live');
  });

  it('ends after the idle timeout, slid by activity', () => {
    expect(judgeSession(session, limits, t0 + 30 * 60_000)).toBe('idle');
    expect(judgeSession({ ...session, lastSeenAt: t0 + 20 * 60_000 }, limits, t0 + 45 * 60_000)).toBe('live');
  });

  it('ends at the absolute lifetime whatever the activity, and sooner when SESSION_TTL_S was lowered since', () => {
    const now = t0 + 12 * 3600_000;
    expect(judgeSession({ ...session, lastSeenAt: now - 1000 }, limits, now)).toBe('expired');
    expect(judgeSession({ ...session, lastSeenAt: t0 + 3600_000 }, { ...limits, ttlS: 3600 }, t0 + 3600_000)).toBe(
      'expired',
    );
  });

  it('a revoked session, or a disabled person, is refused before any time is looked at', () => {
    expect(judgeSession({ ...session, revoked: true }, limits, t0)).toBe('revoked');
    expect(judgeSession({ ...session, disabled: true }, limits, t0)).toBe('disabled');
    expect(judgeSession({ ...session, disabled: true, revoked: true }, limits, t0)).toBe('disabled');
    expect(judgeSession(null, limits, t0)).toBe('missing');
  });

  it('treats an empty, partial or wrongly typed seal as no session, never as one without limits', () => {
    expect(isSeal({})).toBe(false);
    for (const wrong of [{ createdAt: 'soon' }, { createdAt: Infinity }, { createdAt: 0 }, { sid: {} }, { sid: '' }]) {
      expect(isSeal({ sid: 's', createdAt: t0, ...wrong } as never), JSON.stringify(wrong)).toBe(false);
    }
    expect(isSeal({ sid: 's', createdAt: t0 })).toBe(true);
  });

  it('writes the last-seen time at most once a minute, more often when the idle timeout is short', () => {
    expect(touchAfterMs(limits)).toBe(60_000);
    expect(needsTouch(t0, limits, t0 + 59_999)).toBe(false);
    expect(needsTouch(t0, limits, t0 + 60_000)).toBe(true);
    const short = { ttlS: 60, idleS: 2 };
    expect(touchAfterMs(short)).toBe(500);
    expect(needsTouch(t0, short, t0 + 500)).toBe(true);
  });
});
