import { describe, expect, it } from 'vitest';
import { judgeSession, needsTouch, touchAfterMs, type SessionData } from '@/lib/server/session-rules';

const limits = { ttlS: 12 * 3600, idleS: 30 * 60 };
const t0 = Date.UTC(2026, 0, 1);
const session: SessionData = { sid: 's', clientId: 'c', clientSecret: 'x', createdAt: t0, lastSeenAt: t0 };

describe('session lifetime rules', () => {
  it('is live within both limits', () => {
    expect(judgeSession(session, limits, t0 + 29 * 60_000)).toBe('live');
  });

  it('ends after the idle timeout, slid by activity', () => {
    expect(judgeSession(session, limits, t0 + 30 * 60_000)).toBe('idle');
    expect(judgeSession({ ...session, lastSeenAt: t0 + 20 * 60_000 }, limits, t0 + 45 * 60_000)).toBe('live');
  });

  it('ends at the absolute lifetime whatever the activity', () => {
    const now = t0 + 12 * 3600_000;
    expect(judgeSession({ ...session, lastSeenAt: now - 1000 }, limits, now)).toBe('expired');
  });

  it('treats an empty or partial cookie as no session', () => {
    expect(judgeSession({}, limits, t0)).toBe('missing');
    expect(judgeSession({ ...session, clientSecret: undefined } as never, limits, t0)).toBe('missing');
  });

  it('treats fields of the wrong type as no session, never as one without limits', () => {
    for (const wrong of [{ createdAt: 'soon' }, { lastSeenAt: '1' }, { createdAt: Infinity }, { clientSecret: 7 }, { sid: {} }]) {
      expect(judgeSession({ ...session, ...wrong } as never, limits, t0 + 60_000), JSON.stringify(wrong)).toBe('missing');
    }
  });

  it('re-seals the cookie at most once a minute, more often when the idle timeout is short', () => {
    expect(touchAfterMs(limits)).toBe(60_000);
    expect(needsTouch(session, limits, t0 + 59_999)).toBe(false);
    expect(needsTouch(session, limits, t0 + 60_000)).toBe(true);
    const short = { ttlS: 60, idleS: 2 };
    expect(touchAfterMs(short)).toBe(500);
    expect(needsTouch(session, short, t0 + 500)).toBe(true);
  });
});
