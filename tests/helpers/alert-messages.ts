import type { Batch } from '@/lib/contract/batch';
import type { Targets } from '@/lib/contract/targets';
import type { AlertMessage, FiredBatch, Recipient } from '@/lib/server/alerts/message';

/** Targets with a crop of its own and a general germination target for the rest. */
export const TARGETS: Targets = {
  general: { germination: 90, usable: null, cv: null },
  crops: { Lettuce: { germination: 80, usable: 75, cv: 30 } },
};

/** A batch as the service sends it, with figures given as numbers. */
export function batch(
  id: string,
  over: Partial<Batch> & { germination?: number; usable?: number; cv?: number } = {},
): Batch {
  const { germination = 91.5, usable = 88.25, cv = 12, ...rest } = over;
  return {
    batch_id: id,
    batch_name: `Batch ${id}`,
    batch_creation_date: '2026-11-26T23:30:00Z',
    crop_type: 'Lettuce',
    number_of_images: 4,
    total_cells_per_tray: 128,
    avg_germinated_seedlings: '110.00',
    avg_non_germinated_seedlings: '18.00',
    avg_germination_rate: germination.toFixed(2),
    avg_usable_seedlings: '100.00',
    avg_non_usable_cells: '28.00',
    avg_usable_seedling_rate: usable.toFixed(2),
    avg_coefficient_of_variation: cv.toFixed(2),
    avg_median_seedling_size_mm2: '41.20',
    scanned_by_email: 'ana@grower.test',
    analysis_link: null,
    comment: null,
    warnings: false,
    ...rest,
  };
}

/** A batch judged by the germination target of its crop (or the general one), as the watcher hands it over. */
export function judged(b: Batch, targets: Targets = TARGETS): FiredBatch {
  const crop = b.crop_type !== null && targets.crops[b.crop_type]?.germination != null ? b.crop_type : null;
  const target = crop !== null ? targets.crops[crop]!.germination! : targets.general.germination!;
  const value = Number(b.avg_germination_rate);
  return { batch: b, verdicts: [{ metric: 'germination', target, value, misses: value < target, crop }] };
}

/** A `misses-target` finding of `fired` (more found than listed: `total`). */
export function missesMessage(
  fired: FiredBatch[],
  over: Partial<AlertMessage> & { total?: number } = {},
): AlertMessage {
  const { total = fired.length, ...rest } = over;
  return {
    id: 'evt-0001',
    organisation: { id: 'org-1', name: 'Green & Co', slug: 'green' },
    rule: {
      id: 'rule-1',
      name: 'Germination watch',
      when: 'misses-target',
      target: 'germination',
      crop: null,
      search: null,
      delivery: 'immediate',
    },
    targets: TARGETS,
    firedAt: '2026-11-27T00:05:00Z',
    finding: { kind: 'batches', batches: fired, total },
    viewPath: '/batches?from=2026-11-20&to=2026-11-27&tz=UTC&below=germination&org=green',
    ...rest,
  };
}

export const PERSON: Recipient = {
  email: 'ana@grower.test',
  language: 'en',
  timeZone: 'Europe/Berlin',
  personId: 'p-1',
  unsubscribePath: null,
};
export const OUTSIDE: Recipient = {
  email: 'lab@outside.test',
  language: 'de',
  timeZone: 'Europe/Berlin',
  personId: null,
  unsubscribePath: '/api/alerts/unsubscribe?token=tok123',
};
