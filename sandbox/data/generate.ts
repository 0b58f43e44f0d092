import type { Batch } from '../../lib/contract';
import { formatUtcDate } from '../../lib/utc-date';
import { COMMENTS, CROPS, SITES, type CropProfile } from './crops';
import { createRandom, type Random } from './random';

const DAY_MS = 86_400_000;
const HISTORY_DAYS = 730;

export type GenerateOptions = {
  seed: string;
  count: number;
  /** Exclusive end of the history; batches fall in the two years before it. */
  anchorMs: number;
  scanners: readonly string[];
  reportBaseUrl: string;
};

const dec = (n: number | null): string | null => (n === null ? null : n.toFixed(2));
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** 1 around mid-spring, about 0.35 in early winter: nurseries sow most in February to May. */
function sowingSeason(ms: number): number {
  const dayOfYear = (ms / DAY_MS) % 365.25;
  return 0.675 + 0.325 * Math.cos((2 * Math.PI * (dayOfYear - 100)) / 365.25);
}

function creationTimes(rand: Random, count: number, anchorMs: number): number[] {
  const from = anchorMs - HISTORY_DAYS * DAY_MS;
  const times: number[] = [];
  while (times.length < count) {
    const day = Math.floor(from / DAY_MS) + Math.floor(rand.next() * HISTORY_DAYS);
    const weekday = new Date(day * DAY_MS).getUTCDay();
    const weight = sowingSeason(day * DAY_MS) * (weekday === 0 || weekday === 6 ? 0.2 : 1);
    if (!rand.chance(weight)) continue;
    const secondOfDay = Math.round(clamp(rand.normal(10.5, 2.5), 5, 19.5) * 3600);
    const ms = day * DAY_MS + secondOfDay * 1000;
    if (ms >= anchorMs || ms < from) continue;
    // A multi-tray session sometimes starts several batches in the same second.
    times.push(times.length > 0 && rand.chance(0.01) ? times[times.length - 1]! : ms);
  }
  return times.sort((a, b) => a - b);
}

const CROP_WEIGHTS = CROPS.map((c) => [c, c.weight] as const);

function batchFor(rand: Random, ms: number, seq: number, opts: GenerateOptions): Batch {
  const crop: CropProfile = rand.weighted(CROP_WEIGHTS);
  const id = rand.uuid();
  const season = Math.sin((2 * Math.PI * (((ms / DAY_MS) % 365.25) - 80)) / 365.25);
  const failedScan = rand.chance(0.005);
  const cellsUnknown = rand.chance(0.02);
  const sizingFailed = rand.chance(0.015);

  const cells = cellsUnknown ? null : rand.pick(crop.trays);
  const germRate = clamp(rand.normal(crop.germinationMean + 1.5 * season, crop.germinationSd), 35, 100);
  const usableRate = clamp(germRate - Math.abs(rand.normal(crop.usableGap, crop.usableGap / 2)), 0, germRate);
  const cv = clamp(rand.normal(20 + (95 - germRate) * 0.6, 4), 6, 65);
  const size = crop.sizeMm2 * (1 + 0.08 * season) * (1 - (cv - 20) / 150) * clamp(rand.normal(1, 0.12), 0.5, 1.6);

  const perTray = (rate: number) => (cells === null ? null : Number(((cells * rate) / 100).toFixed(2)));
  const germinated = perTray(germRate);
  const usable = perTray(usableRate);
  const trays = rand.int(1, 12);
  const variety = rand.pick(crop.varieties);
  const week = Math.ceil((((ms / DAY_MS) % 365.25) + 1) / 7);
  const lowGermination = germRate < crop.germinationMean - 2 * crop.germinationSd;

  return {
    batch_id: id,
    batch_name: `${crop.name} ${variety} · ${rand.pick(SITES)} · wk${week} #${String(seq % 100).padStart(2, '0')}`,
    batch_creation_date: formatUtcDate(ms),
    crop_type: rand.chance(0.02) ? null : crop.name,
    number_of_images: trays * rand.int(1, 2),
    total_cells_per_tray: cells,
    avg_germinated_seedlings: failedScan ? null : dec(germinated),
    avg_non_germinated_seedlings: failedScan || cells === null ? null : dec(cells - germinated!),
    avg_germination_rate: failedScan ? null : dec(germRate),
    avg_usable_seedlings: failedScan ? null : dec(usable),
    avg_non_usable_cells: failedScan || cells === null ? null : dec(cells - usable!),
    avg_usable_seedling_rate: failedScan ? null : dec(usableRate),
    avg_coefficient_of_variation: failedScan || sizingFailed ? null : dec(cv),
    avg_median_seedling_size_mm2: failedScan || sizingFailed ? null : dec(size),
    scanned_by_email: rand.chance(0.05) ? null : rand.pick(opts.scanners),
    analysis_link: failedScan || rand.chance(0.03) ? null : `${opts.reportBaseUrl}/${id}`,
    comment: failedScan ? 'Scan failed: images out of focus' : rand.chance(0.15) ? rand.pick(COMMENTS) : null,
    warnings: failedScan || sizingFailed || lowGermination || cv > 40 || rand.chance(0.03),
  };
}

/** A deterministic history of `count` batches, oldest first: the same options give the same batches. */
export function generateBatches(opts: GenerateOptions): Batch[] {
  const rand = createRandom(opts.seed);
  return creationTimes(rand, opts.count, opts.anchorMs).map((ms, i) => batchFor(rand, ms, i + 1, opts));
}
