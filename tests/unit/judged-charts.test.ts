import { describe, expect, it } from 'vitest';
import { targetFor, type Targets } from '@/lib/contract';
import { histogram, perCrop } from '@/lib/explorer/aggregate';
import { toRow } from '@/lib/explorer/rows';
import { generateBatches } from '@/sandbox/data/generate';

const rows = generateBatches({ seed: 'judged', count: 5_000, anchorMs: Date.UTC(2026, 5, 1), scanners: ['a@x.example'], reportBaseUrl: 'https://r.example' }).map(toRow);
const targets: Targets = { general: { germination: 90, usable: null, cv: null }, crops: { Petunia: { germination: 75, usable: null, cv: null }, Lettuce: { germination: 96, usable: 93, cv: null } } };

describe('charts judge each batch by its own crop', () => {
  it('the histogram splits each band into batches below their own target and the rest', () => {
    const { bins } = histogram(rows, 'germination', targets);
    const below = rows.filter((r) => {
      const t = targetFor(targets, r.batch.crop_type, 'germination');
      return r.germination !== null && t !== null && r.germination < t;
    }).length;
    expect(bins.reduce((n, b) => n + b.misses, 0)).toBe(below);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(rows.filter((r) => r.germination !== null).length);
    for (const b of bins) expect(b.misses + b.meets).toBe(b.count);
    // Targets differ per crop, so some band holds batches on both sides of their targets.
    expect(bins.some((b) => b.misses > 0 && b.meets > 0)).toBe(true);
  });

  it('crops compared carry their own target, "no crop" the general one', () => {
    const crops = perCrop(rows, 'germination', targets);
    expect(crops.find((c) => c.crop === 'Petunia')?.target).toBe(75);
    expect(crops.find((c) => c.crop === 'Lettuce')?.target).toBe(96);
    expect(crops.find((c) => c.crop === 'Tomato')?.target).toBe(90);
    const none = crops.find((c) => c.crop === '(none)');
    if (none) expect(none.target).toBe(90);
  });
});
