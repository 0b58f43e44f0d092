import { describe, expect, it } from 'vitest';
import { targetFor, type Targets } from '@/lib/contract';
import { histogram, histogramsPerCrop, perCrop } from '@/lib/explorer/aggregate';
import { formatJudged } from '@/lib/explorer/metrics';
import { formatsFor } from '@/lib/i18n/formats';
import { toRow } from '@/lib/explorer/rows';
import { generateBatches } from '@/sandbox/data/generate';

const rows = generateBatches({
  seed: 'judged',
  count: 5_000,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example'],
  reportBaseUrl: 'https://r.example',
}).map(toRow);
const targets: Targets = {
  general: { germination: 90, usable: null, cv: null },
  crops: { Petunia: { germination: 75, usable: null, cv: null }, Lettuce: { germination: 96, usable: 93, cv: null } },
};

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

describe('a metric crops cannot share an axis for', () => {
  it('size: a histogram per crop on its own bins, most batches first, every batch with a size in its crop’s', () => {
    const perCrop = histogramsPerCrop(rows, 'size', targets);
    const crops = new Set(rows.map((r) => r.crop ?? '(none)'));
    expect(perCrop.map((h) => h.crop).sort()).toEqual([...crops].sort());
    for (let i = 1; i < perCrop.length; i++) expect(perCrop[i - 1]!.count).toBeGreaterThanOrEqual(perCrop[i]!.count);
    for (const h of perCrop) {
      const own = rows.filter((r) => (r.crop ?? '(none)') === h.crop && r.size !== null);
      expect(h.bins.reduce((n, b) => n + b.count, 0)).toBe(own.length);
      // About a dozen bins across the crop's own range, not 30 across all crops'.
      if (own.length > 50) expect(h.bins.length).toBeLessThanOrEqual(25);
      const sizes = own.map((r) => r.size!);
      expect(h.bins[0]!.lo).toBeLessThanOrEqual(Math.min(...sizes));
      expect(h.bins.at(-1)!.hi).toBeGreaterThan(Math.max(...sizes));
    }
    // Cucumber's bins are wider than petunia's: each on its own scale.
    const width = (crop: string) => perCrop.find((h) => h.crop === crop)!.width;
    expect(width('Cucumber')).toBeGreaterThan(width('Petunia'));
  });
});

describe('a figure beside its verdict', () => {
  const f = formatsFor('en-US');
  it('shows enough digits that the rounded figure never lands on the other side of the target', () => {
    expect(formatJudged('germination', 89.996, 90, f)).toBe('89.996%');
    expect(formatJudged('germination', 89.95, 90, f)).toBe('89.95%');
    expect(formatJudged('germination', 90.004, 90, f)).toBe('90%');
    expect(formatJudged('cv', 30.001, 30, f)).toBe('30.001%');
    expect(formatJudged('germination', 85, 55, f)).toBe('85%');
    expect(formatJudged('germination', 85.123, null, f)).toBe('85.12%');
  });
});
