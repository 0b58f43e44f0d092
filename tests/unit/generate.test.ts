import { describe, expect, it } from 'vitest';
import { BatchSchema } from '@/lib/contract/schemas';
import { generateBatches } from '@/sandbox/data/generate';

const options = {
  seed: 'unit',
  count: 5000,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@example.com', 'b@example.com'],
  reportBaseUrl: 'https://reports.example/analysis',
};
const num = (v: string | null) => (v === null ? null : Number(v));

describe('seeded batch generator', () => {
  const batches = generateBatches(options);

  it('is deterministic and differs by seed', () => {
    expect(generateBatches(options)).toEqual(batches);
    expect(generateBatches({ ...options, seed: 'other' })[0]!.batch_id).not.toBe(batches[0]!.batch_id);
  });

  it('makes batches that match the contract, oldest first, within two years of the anchor', () => {
    for (const batch of batches) expect(BatchSchema.parse(batch)).toEqual(batch);
    const times = batches.map((b) => Date.parse(b.batch_creation_date));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(options.anchorMs - 730 * 86_400_000);
    expect(Math.max(...times)).toBeLessThan(options.anchorMs);
    expect(new Set(batches.map((b) => b.batch_id)).size).toBe(batches.length);
  });

  it('keeps counts and rates consistent with the tray size', () => {
    for (const b of batches) {
      const cells = b.total_cells_per_tray;
      const germinated = num(b.avg_germinated_seedlings);
      const usable = num(b.avg_usable_seedlings);
      const rate = num(b.avg_germination_rate);
      if (cells !== null && germinated !== null && rate !== null) {
        expect(germinated + num(b.avg_non_germinated_seedlings)!).toBeCloseTo(cells, 1);
        expect(Math.abs((germinated / cells) * 100 - rate)).toBeLessThan(0.05);
        expect(usable!).toBeLessThanOrEqual(germinated + 0.01);
      }
      if (rate !== null) {
        expect(rate).toBeGreaterThanOrEqual(0);
        expect(rate).toBeLessThanOrEqual(100);
        expect(num(b.avg_usable_seedling_rate)!).toBeLessThanOrEqual(rate);
      }
    }
  });

  it('has the variety of real data: crops, nulls, comments, warnings, seasons, ties', () => {
    const share = (pred: (b: (typeof batches)[number]) => boolean) => batches.filter(pred).length / batches.length;
    expect(new Set(batches.map((b) => b.crop_type)).size).toBeGreaterThanOrEqual(8);
    expect(share((b) => b.crop_type === null)).toBeGreaterThan(0.005);
    expect(share((b) => b.avg_germination_rate === null)).toBeGreaterThan(0);
    expect(share((b) => b.comment !== null)).toBeGreaterThan(0.1);
    expect(share((b) => b.warnings)).toBeGreaterThan(0.03);
    expect(share((b) => b.warnings)).toBeLessThan(0.3);
    const month = (m: number) => batches.filter((b) => new Date(b.batch_creation_date).getUTCMonth() === m).length;
    expect(month(3)).toBeGreaterThan(month(11) * 1.5); // April busier than December
    const dates = batches.map((b) => b.batch_creation_date);
    expect(new Set(dates).size).toBeLessThan(dates.length); // some batches share a second
    const tomato = batches.filter((b) => b.crop_type === 'Tomato' && b.avg_germination_rate);
    const petunia = batches.filter((b) => b.crop_type === 'Petunia' && b.avg_germination_rate);
    const mean = (xs: typeof batches) => xs.reduce((s, b) => s + num(b.avg_germination_rate)!, 0) / xs.length;
    expect(mean(tomato)).toBeGreaterThan(mean(petunia) + 5);
  });
});
