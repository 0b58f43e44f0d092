import { describe, expect, it } from 'vitest';
import { WindowCounter } from '@/lib/server/window-counter';

describe('WindowCounter', () => {
  it('allows `limit` hits per window, says how long to wait, and forgets after the window', () => {
    let now = 1_000_000;
    const counter = new WindowCounter(3, 60_000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(counter.waitS('a')).toBe(0);
      counter.hit('a');
    }
    expect(counter.waitS('a')).toBe(60);
    expect(counter.waitS('b')).toBe(0);
    now += 45_500;
    expect(counter.waitS('a')).toBe(15);
    now += 14_500;
    expect(counter.waitS('a')).toBe(0);
  });

  it('never asks to wait less than a second', () => {
    let now = 0;
    const counter = new WindowCounter(1, 1000, () => now);
    counter.hit('a');
    now = 999.9;
    expect(counter.waitS('a')).toBe(1);
  });
});
