import { afterEach, describe, expect, it, vi } from 'vitest';
import { noteUpstreamCall, SERVICE_RECENT_MS, serviceHealth } from '@/lib/server/upstream-health';

const call = (status: number | null) => ({ status, durationMs: 12 });

describe('the service as /api/health tells it', () => {
  afterEach(() => vi.useRealTimers());

  it('unknown until called, ok while it answers (a 401 or 422 is the service working), degraded when it does not', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.advanceTimersByTime(10 * SERVICE_RECENT_MS); // past anything an earlier test of this worker noted
    expect(serviceHealth()).toBe('unknown');
    noteUpstreamCall(call(200));
    expect(serviceHealth()).toBe('ok');
    noteUpstreamCall(call(401));
    expect(serviceHealth()).toBe('ok');
    noteUpstreamCall(call(503));
    expect(serviceHealth()).toBe('degraded');
    noteUpstreamCall(call(null));
    expect(serviceHealth()).toBe('degraded');
    noteUpstreamCall(call(422));
    expect(serviceHealth()).toBe('ok');
  });

  it('says unknown again once nothing was asked for a while, whatever the last answer was', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const status of [200, 503]) {
      noteUpstreamCall(call(status));
      vi.advanceTimersByTime(SERVICE_RECENT_MS - 1);
      expect(serviceHealth()).toBe(status === 200 ? 'ok' : 'degraded');
      vi.advanceTimersByTime(2);
      expect(serviceHealth()).toBe('unknown');
    }
  });
});
