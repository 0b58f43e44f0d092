import type { AlertChannels, AlertMessage, Recipient } from '@/lib/server/alerts/message';
import type { Batch } from '@/lib/contract';
import { formatUtcDate } from '@/lib/utc-date';

/** What a recording AlertChannels was handed: each e-mail (with its messages and digest) and each webhook call. */
export type Recorded = {
  emails: { to: Recipient; messages: readonly AlertMessage[]; digest: { cadence: string; since: string } | null }[];
  webhooks: { hook: { url: string; format: string; secret: string }; message: AlertMessage }[];
};

/** AlertChannels that keep what they are given; `failNext` makes the next calls of a channel throw (a server down). */
export function recordingChannels(): AlertChannels & Recorded & { failNext: { email: number; webhook: number } } {
  const failNext = { email: 0, webhook: 0 };
  const recorded: Recorded = { emails: [], webhooks: [] };
  return {
    ...recorded,
    failNext,
    async email(to, messages, digest) {
      if (failNext.email > 0) {
        failNext.email--;
        throw new Error('the mail server did not take the e-mail (421 try later)');
      }
      recorded.emails.push({ to, messages, digest });
    },
    async webhook(hook, message) {
      if (failNext.webhook > 0) {
        failNext.webhook--;
        throw new Error('the webhook answered 503');
      }
      recorded.webhooks.push({ hook, message });
    },
  };
}

let serial = 0;
/** A batch as the service lists one, created at `at` (ms), with the figures given (rates in percent). */
export function newBatch(
  at: number,
  figures: {
    crop?: string | null;
    germination?: number | null;
    usable?: number | null;
    cv?: number | null;
    warnings?: boolean;
    name?: string;
    scanner?: string;
  },
): Batch {
  const id = `alert-test-${Date.now().toString(36)}-${serial++}`;
  const decimal = (v: number | null | undefined) => (v === null || v === undefined ? null : v.toFixed(2));
  return {
    batch_id: id,
    batch_name: figures.name ?? `Batch ${id}`,
    batch_creation_date: formatUtcDate(at),
    crop_type: figures.crop === undefined ? 'Alertia' : figures.crop,
    number_of_images: 4,
    total_cells_per_tray: 128,
    avg_germinated_seedlings: null,
    avg_non_germinated_seedlings: null,
    avg_germination_rate: decimal(figures.germination ?? 95),
    avg_usable_seedlings: null,
    avg_non_usable_cells: null,
    avg_usable_seedling_rate: decimal(figures.usable ?? 90),
    avg_coefficient_of_variation: decimal(figures.cv ?? 10),
    avg_median_seedling_size_mm2: null,
    scanned_by_email: figures.scanner ?? 'scanner@example.com',
    analysis_link: null,
    comment: null,
    warnings: figures.warnings ?? false,
  };
}
