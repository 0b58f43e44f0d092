import { afterEach, describe, expect, it, vi } from 'vitest';
import { FairShare } from '@/lib/async/fair-share';
import { AppError } from '@/lib/server/http/app-error';
import { problemOf } from '@/lib/server/http/error-table';
import { RangeLoadAdmission } from '@/lib/server/load-limits/range-load-admission';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairShare: the upstream connections, shared between organisations', () => {
  it('never lets one key hold more than its share, nor all keys more than the total', async () => {
    const share = new FairShare(4, 3);
    const a = await Promise.all([1, 2, 3].map(() => share.acquire('a')));
    const fourth = share.acquire('a');
    await tick();
    expect([share.holding('a'), share.queued('a')]).toEqual([3, 1]);
    const b = await share.acquire('b');
    expect(share.holding('b')).toBe(1);
    a[0]!();
    await fourth;
    expect(share.holding('a')).toBe(3);
    b();
  });

  it('takes the waiting keys in turn: a key with hundreds waiting does not hold up the next key’s one request', async () => {
    const share = new FairShare(2, 2);
    const held = [await share.acquire('busy'), await share.acquire('busy')];
    const order: string[] = [];
    const busy = Array.from({ length: 200 }, () =>
      share.acquire('busy').then((release) => (order.push('busy'), release)),
    );
    const other = share.acquire('other').then((release) => (order.push('other'), release));
    await tick();
    held[0]!();
    await tick();
    // The busy key had a slot's worth first in the queue, but the next free slot is the other key's turn.
    held[1]!();
    await other;
    expect(order.indexOf('other')).toBe(1);
    (await other)();
    for (const next of busy) (await next)();
    expect(share.holding('busy') + share.queued('busy')).toBe(0);
  });

  it('puts a `first` request (a token fetch) ahead of its key’s queue, and drops an aborted wait', async () => {
    const share = new FairShare(1, 1);
    const held = await share.acquire('a');
    const order: string[] = [];
    const plain = share.acquire('a').then((r) => (order.push('plain'), r));
    const abort = new AbortController();
    const gone = share.acquire('a', abort.signal);
    const token = share.acquire('a', undefined, { first: true }).then((r) => (order.push('token'), r));
    abort.abort(new Error('left'));
    await expect(gone).rejects.toThrow('left');
    expect(share.queued('a')).toBe(2);
    held();
    (await token)();
    (await plain)();
    expect(order).toEqual(['token', 'plain']);
  });

  it('a release called twice frees one slot', async () => {
    const share = new FairShare(1, 1);
    const release = await share.acquire('a');
    release();
    release();
    const again = await share.acquire('a');
    const third = share.acquire('a');
    await tick();
    expect(share.queued('a')).toBe(1);
    again();
    (await third)();
  });
});

describe('RangeLoadAdmission: range loads at once per session and per organisation', () => {
  afterEach(() => vi.useRealTimers());
  const alice = { sid: 'alice', organisationId: 'org-a' };
  const alicesTab = alice;
  const bob = { sid: 'bob', organisationId: 'org-a' };
  const carol = { sid: 'carol', organisationId: 'org-b' };

  it('a session over its limit waits its turn, and starts as soon as one of its loads ends', async () => {
    const admission = new RangeLoadAdmission({ perSession: 2, perOrganisation: 10, waitMs: 5000 });
    const [first] = [await admission.enter(alice), await admission.enter(alicesTab)];
    const third = admission.enter(alice);
    await tick();
    expect(admission.runningFor(alice).session).toBe(2);
    // Another session of the organisation is not held up by Alice's limit.
    const bobs = await admission.enter(bob);
    first!();
    await third;
    expect(admission.runningFor(alice)).toEqual({ session: 2, organisation: 3 });
    bobs();
  });

  it('past the wait: 429 naming the session, with Retry-After and a sentence saying what to do', async () => {
    vi.useFakeTimers();
    const admission = new RangeLoadAdmission({ perSession: 1, perOrganisation: 10, waitMs: 3000 });
    await admission.enter(alice);
    const refused = admission.enter(alice).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3000);
    const error = (await refused) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(problemOf(error)).toEqual({
      status: 429,
      detail:
        'session: 1 date ranges are already loading for this session (its tabs, windows and exports together); try again in 3 s, when one has finished',
      retryAfterS: 3,
    });
    expect(admission.runningFor(alice).session).toBe(1);
  });

  it('an organisation over its limit: the others run on, its own wait (then 429 naming the organisation)', async () => {
    const admission = new RangeLoadAdmission({ perSession: 5, perOrganisation: 2, waitMs: 0 });
    await admission.enter(alice);
    await admission.enter(bob);
    const error = (await admission.enter(bob).catch((e: unknown) => e)) as AppError;
    expect(problemOf(error)).toEqual({
      status: 429,
      detail:
        'organisation: 2 date ranges are already loading for your organisation; try again in 1 s, when one has finished',
      retryAfterS: 1,
    });
    expect(typeof (await admission.enter(carol))).toBe('function');
  });

  it('refuses at once when as many wait as the limit allows to run, and forgets a wait whose request was dropped', async () => {
    const admission = new RangeLoadAdmission({ perSession: 1, perOrganisation: 10, waitMs: 60_000 });
    const running = await admission.enter(alice);
    const abort = new AbortController();
    const waiting = admission.enter(alice, abort.signal);
    await expect(admission.enter(alice)).rejects.toMatchObject({ code: 'too_many_loads', field: 'session' });
    abort.abort(new Error('tab closed'));
    await expect(waiting).rejects.toThrow('tab closed');
    const next = admission.enter(alice);
    running();
    (await next)();
    expect(admission.runningFor(alice)).toEqual({ session: 0, organisation: 0 });
  });
});
