import { describe, expect, it } from 'vitest';
import { Channel } from '@/lib/async/channel';
import { Workers } from '@/lib/async/workers';

const never = new AbortController().signal;
const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('Channel', () => {
  it('hands items over in order and ends once closed and drained', async () => {
    const channel = new Channel<number>(4);
    await channel.put(1, never);
    await channel.put(2, never);
    channel.close();
    expect([await channel.take(), await channel.take(), await channel.take()]).toEqual([1, 2, undefined]);
  });

  it('makes a producer wait while `capacity` items are unread', async () => {
    const channel = new Channel<number>(2);
    await channel.put(1, never);
    await channel.put(2, never);
    const third = channel.put(3, never);
    expect(await settled(third)).toBe(false);
    expect(await channel.take()).toBe(1);
    expect(await settled(third)).toBe(true);
    expect([await channel.take(), await channel.take()]).toEqual([2, 3]);
  });

  it('a reader waits for the next item', async () => {
    const channel = new Channel<string>(1);
    const next = channel.take();
    expect(await settled(next)).toBe(false);
    await channel.put('late', never);
    expect(await next).toBe('late');
  });

  it('after a failure, gives out what came before, then throws; a waiting producer is told to stop by its signal', async () => {
    const channel = new Channel<number>(1);
    const abort = new AbortController();
    await channel.put(1, abort.signal);
    const blocked = channel.put(2, abort.signal);
    abort.abort(new Error('stopped'));
    channel.fail(new Error('upstream broke'));
    await expect(blocked).rejects.toThrow('stopped');
    expect(await channel.take()).toBe(1);
    await expect(channel.take()).rejects.toThrow('upstream broke');
    await expect(channel.put(3, abort.signal)).rejects.toThrow('stopped');
  });

  it('refuses a capacity below one', () => {
    expect(() => new Channel(0)).toThrow(RangeError);
  });
});

describe('Workers', () => {
  it('every piece of work is taken once; workers end when nothing is queued or in progress', async () => {
    const queue = [1, 2, 3, 4, 5, 6, 7];
    const active = new Set<number>();
    const done: number[] = [];
    const workers = new Workers<number>(
      () => {
        const next = queue.shift();
        if (next !== undefined) active.add(next);
        return next;
      },
      () => active.size === 0,
    );
    const run = async () => {
      for (let n = await workers.next(never); n !== undefined; n = await workers.next(never)) {
        await new Promise((r) => setTimeout(r, n % 3));
        done.push(n);
        active.delete(n);
        workers.wake();
      }
    };
    await Promise.all([run(), run(), run()]);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a waiting worker takes work that a busy one adds, and counts as idle meanwhile', async () => {
    const queue: string[] = [];
    const active = new Set<string>(['walking']);
    const workers = new Workers<string>(
      () => {
        const next = queue.shift();
        if (next) active.add(next);
        return next;
      },
      () => active.size === 0,
    );
    const waiting = workers.next(never);
    expect(await settled(waiting)).toBe(false);
    expect(workers.idle).toBe(1);
    queue.push('shared');
    workers.wake();
    expect(await waiting).toBe('shared');
    expect(workers.idle).toBe(0);
    active.clear();
    expect(await workers.next(never)).toBeUndefined();
  });

  it('an aborted signal stops a worker', async () => {
    const abort = new AbortController();
    abort.abort(new Error('stopped'));
    const workers = new Workers<number>(
      () => 1,
      () => false,
    );
    await expect(workers.next(abort.signal)).rejects.toThrow('stopped');
  });
});
