import type { Batch } from '../../lib/contract';
import { formatUtcDate } from '../../lib/utc-date';
import { createRandom } from './random';

const DAY_MS = 86_400_000;
/** One batch a day, at 09:00 UTC plus a few minutes, over this many days before the anchor. */
export const DRIFT_DAYS = 300;

/**
 * The `drift-client` organisation: a year of steady batches in which Tomato's germination holds around 93 %
 * for its first 100 batches, then shifts down by about 2σ and keeps sliding (a seed lot going off), so a
 * control chart finds points beyond its limits and long runs below its centre (52 of its 149 batches with a
 * rate). Lettuce and Basil do not shift (chance alone gives Lettuce one run of 8). Every 13th batch carries a warning (some of them in the baseline), and one Tomato scan failed (no
 * rate). Deterministic: the same anchor gives the same batches; their analysis links are under `reportBaseUrl`.
 */
export function driftBatches(anchorMs: number, reportBaseUrl: string): Batch[] {
  const rand = createRandom('drift');
  const start = Math.floor(anchorMs / DAY_MS) * DAY_MS - DRIFT_DAYS * DAY_MS;
  const out: Batch[] = [];
  let tomato = 0;
  for (let day = 0; day < DRIFT_DAYS; day++) {
    const crop = day % 2 === 0 ? 'Tomato' : day % 4 === 1 ? 'Lettuce' : 'Basil';
    let germination: number;
    if (crop === 'Tomato') {
      const shift = tomato < 100 ? 0 : 3 + (tomato - 100) * 0.06;
      germination = rand.normal(93 - shift, 1.5);
      tomato++;
    } else germination = crop === 'Lettuce' ? rand.normal(95, 1.2) : rand.normal(88, 2);
    germination = Math.min(100, germination);
    const usable = germination - Math.abs(rand.normal(4, 1));
    const failed = crop === 'Tomato' && tomato === 42;
    const n = out.length + 1;
    const rate = (v: number) => (failed ? null : v.toFixed(2));
    const id = `d0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    out.push({
      batch_id: id,
      batch_name: `${crop} drift #${String(n).padStart(3, '0')}`,
      batch_creation_date: formatUtcDate(start + day * DAY_MS + (9 * 60 + rand.int(0, 59)) * 60_000),
      crop_type: crop,
      number_of_images: 4,
      total_cells_per_tray: 128,
      avg_germinated_seedlings: rate((128 * germination) / 100),
      avg_non_germinated_seedlings: rate(128 - (128 * germination) / 100),
      avg_germination_rate: rate(germination),
      avg_usable_seedlings: rate((128 * usable) / 100),
      avg_non_usable_cells: rate(128 - (128 * usable) / 100),
      avg_usable_seedling_rate: rate(usable),
      avg_coefficient_of_variation: rate(rand.normal(22, 2)),
      avg_median_seedling_size_mm2: rate(rand.normal(crop === 'Basil' ? 60 : 150, 8)),
      scanned_by_email: 'qa@drift.example',
      analysis_link: `${reportBaseUrl}/${id}`,
      comment: failed ? 'Scan failed: images out of focus' : null,
      warnings: failed || n % 13 === 0,
    });
  }
  return out;
}
