import { afterEach, describe, expect, it, vi } from 'vitest';
import { noteUpstreamCall, SERVICE_RECENT_MS, serviceHealth } from '@/lib/server/batches/upstream-health';

const call = (status: number | null) => ({ status });

describe('the service as /api/health tells it', () => {
  afterEach(() => vi.useRealTimers());

  it('ok while it answers (a 401 or 422 is the service working), degraded when it does not', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.advanceTimersByTime(10 * SERVICE_RECENT_MS); // past anything an earlier test of this worker noted
    expect(serviceHealth()).toBe('ok');
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

  it('a failure counts for five minutes; a quiet spell reads as ok, so nothing tells when people use the app', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    noteUpstreamCall(call(503));
    vi.advanceTimersByTime(SERVICE_RECENT_MS - 1);
    expect(serviceHealth()).toBe('degraded');
    vi.advanceTimersByTime(2);
    expect(serviceHealth()).toBe('ok');
    noteUpstreamCall(call(200));
    vi.advanceTimersByTime(10 * SERVICE_RECENT_MS);
    expect(serviceHealth()).toBe('ok');
  });

  it('a call the person abandoned (an abort) is no failure of the service', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    noteUpstreamCall(call(200));
    noteUpstreamCall({ status: null, error: 'aborted' });
    expect(serviceHealth()).toBe('ok');
  });
});
