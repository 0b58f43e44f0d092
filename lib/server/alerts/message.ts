import 'server-only';
import type { AlertDelivery, AlertSignal, AlertTarget, AlertWhen, SilentBy } from '../../contract/alerts';
import type { Batch } from '../../contract/batch';
import type { TargetMetric, Targets } from '../../contract/targets';

/**
 * What a rule's check found, as the channels (lib/server/notify/) put it in words: the watcher
 * (lib/server/alerts/) decides what fired and to whom; a channel only says it and sends it.
 */

/** One batch that fired a rule, with the verdicts behind it (the kinds of target its crop has and it was judged by). */
export type FiredBatch = {
  batch: Batch;
  /** Each target the batch was judged by: its crop's (or the general) target, its figure and whether it missed. */
  verdicts: { metric: TargetMetric; target: number; value: number; misses: boolean; crop: string | null }[];
};

export type Finding =
  /** `misses-target` and `warnings`: the batches found in one check (more than listed: `total`). */
  | { kind: 'batches'; batches: FiredBatch[]; total: number }
  /** `control-signal`: a crop's chart signals at these batches, with the chart's own baseline. */
  | {
      kind: 'control-signal';
      crop: string;
      metric: TargetMetric;
      signal: Exclude<AlertSignal, 'any'>;
      batches: FiredBatch[];
      total: number;
      limits: { centre: number; lcl: number; ucl: number };
    }
  /** `silent`: no batch for `days` days for a crop or a scanning person (`lastAt`: their last batch, if any). */
  | { kind: 'silent'; by: SilentBy; who: string; days: number; lastAt: string | null };

/** One rule's finding, the unit every channel sends (immediately, or gathered into a digest). */
export type AlertMessage = {
  /** The event's id: a webhook's payload carries it, so a receiver can drop a retried delivery it already has. */
  id: string;
  organisation: { id: string; name: string; slug: string };
  rule: {
    id: string;
    name: string;
    when: AlertWhen;
    target: AlertTarget | null;
    crop: string | null;
    search: string | null;
    delivery: AlertDelivery;
  };
  /** The organisation's targets when it fired (the message shows each batch's crop's targets). */
  targets: Targets;
  firedAt: string;
  finding: Finding;
  /** The explorer's view of everything the finding is about, a path with its query (`/batches?…&org=…`). */
  viewPath: string;
};

/** Who an e-mail goes to, with the language and zone it is written in. */
export type Recipient = {
  email: string;
  language: 'en' | 'de' | 'nl';
  timeZone: string;
  /** A person of the organisation; null: an outside address (its e-mails carry `unsubscribePath`). */
  personId: string | null;
  unsubscribePath: string | null;
};

/** The channels the watcher sends through; each throws when the message was not delivered (the watcher retries). */
export interface AlertChannels {
  /** One e-mail: a single message (immediate), or a digest of everything since the last one (grouped by crop). */
  email(
    to: Recipient,
    messages: readonly AlertMessage[],
    digest: null | { cadence: Exclude<AlertDelivery, 'immediate'>; since: string },
  ): Promise<void>;
  /** One signed POST of one message in the webhook's format. */
  webhook(
    hook: { url: string; format: 'json' | 'slack' | 'teams'; secret: string },
    message: AlertMessage,
  ): Promise<void>;
}
