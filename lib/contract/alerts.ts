/**
 * Alert rules, subscriptions, the alerts history and report schedules as our API answers them (`/api/alerts`,
 * `/api/alerts/history`, `/api/settings/views/<id>/schedule`). The server's zod schemas for what it is sent are
 * in lib/server/alerts/api-schemas.ts.
 */

export const ALERT_WHEN = ['misses-target', 'warnings', 'control-signal', 'silent'] as const;
export type AlertWhen = (typeof ALERT_WHEN)[number];
/** Which target a `misses-target` rule watches: the same kinds as the Below target filter. */
export const ALERT_TARGETS = ['any', 'germination', 'usable', 'cv'] as const;
export type AlertTarget = (typeof ALERT_TARGETS)[number];
/** A control-chart signal: a point beyond the limits, a run on one side of the centre line, or either. */
export const ALERT_SIGNALS = ['any', 'limits', 'run'] as const;
export type AlertSignal = (typeof ALERT_SIGNALS)[number];
/** What a `silent` rule counts days without a batch for: each crop, or each scanning person. */
export const SILENT_BY = ['crop', 'scanner'] as const;
export type SilentBy = (typeof SILENT_BY)[number];
export const ALERT_DELIVERY = ['immediate', 'hourly', 'daily'] as const;
export type AlertDelivery = (typeof ALERT_DELIVERY)[number];
export const WEBHOOK_FORMATS = ['json', 'slack', 'teams'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export const MAX_ALERT_NAME = 80;
export const MAX_ALERT_RECIPIENTS = 50;
export const MAX_ALERT_WEBHOOKS = 5;
export const MAX_ALERT_RULES = 100;
export const MAX_SEARCH = 200;
/** Batches one immediate message lists; the rest are behind the link to the view of all of them. */
export const MAX_LISTED_BATCHES = 20;
export const REPORT_CADENCES = ['daily', 'weekly', 'monthly'] as const;
export type ReportCadence = (typeof REPORT_CADENCES)[number];
export type SubscriptionState = 'subscribed' | 'muted' | 'none';

/** A person as a rule or an entry names them. */
export type PersonRef = { email: string; name: string };

/** A rule as `GET /api/alerts` answers it: never a webhook's secret. */
export type AlertRule = {
  id: string;
  name: string;
  when: AlertWhen;
  target: AlertTarget | null;
  signal: AlertSignal | null;
  crop: string | null;
  search: string | null;
  silentDays: number | null;
  silentBy: SilentBy | null;
  recipients: string[];
  webhooks: { url: string; format: WebhookFormat; secretSet: boolean }[];
  delivery: AlertDelivery;
  digestHour: number;
  paused: boolean;
  /** Only batches created after this instant are reported (no flood of history on the first check). */
  createdAt: string;
  createdBy: PersonRef | null;
  updatedAt: string;
  /** The asker's own choice. */
  subscription: SubscriptionState;
  /** Whether the asker receives it now: a recipient or subscribed, and not muted. */
  receiving: boolean;
};
export type AlertRuleList = { rules: AlertRule[] };

export type AlertChannel = 'email' | 'webhook' | 'in-app';

/** What fired, as facts a page puts in its reader's words (`summary` is the same in English, for scripts). */
export type AlertWhat =
  /** Batches that missed their targets or had warnings: how many, and the names of the first five. */
  | { kind: 'batches'; total: number; names: string[] }
  /** A crop's control chart: its metric, the signal, and how many batches signal. */
  | {
      kind: 'control-signal';
      crop: string;
      metric: 'germination' | 'usable' | 'cv';
      signal: 'limits' | 'run';
      total: number;
    }
  /** No batch for `days` days from a crop or a scanning person (`who`). */
  | { kind: 'silent'; by: 'crop' | 'scanner'; who: string; days: number }
  /** The Batch Data Service has not answered since `since` (told to the administrators). */
  | { kind: 'outage'; since: string };

/** A delivery's state: arrived, waiting for its digest, being sent (or retried), or given up. */
export type AlertDeliveryState = 'delivered' | 'digest' | 'pending' | 'failed';

/** One line of `GET /api/alerts/history`: one rule's finding sent on one channel to one recipient. */
export type AlertHistoryEntry = {
  id: string;
  at: string;
  ruleId: string;
  ruleName: string;
  batchIds: string[];
  /** What fired, in English: the batches (misses-target, warnings), a crop's signal, a silence. */
  summary: string;
  channel: AlertChannel;
  /** An e-mail address, a webhook's host, or the person (in-app). */
  recipient: string;
  delivered: boolean;
  /** Why a delivery failed, or that it waits for the digest, in an English sentence (`state` and `error` say it as data). */
  detail: string | null;
  state: AlertDeliveryState;
  /** The digest a waiting e-mail goes out with. */
  digest: 'hourly' | 'daily' | null;
  /** Failed attempts so far. */
  attempts: number;
  /** The last attempt's failure as the mail server or webhook answered, if one failed. */
  error: string | null;
  /** What fired, as facts (null for an event of an older release). */
  what: AlertWhat | null;
  /** In-app entries for the asker: read or not (the bell counts the unread). */
  read: boolean | null;
};
export type AlertHistory = { entries: AlertHistoryEntry[]; unread: number };

/** A saved view's report schedule as `/api/settings/views/<id>/schedule` takes it. */
export type ReportScheduleInput = {
  cadence: ReportCadence;
  /** 1 (Monday) to 7 (Sunday), for weekly reports. */
  weekday?: number;
  /** 1 to 28, for monthly reports (every month has it). */
  dayOfMonth?: number;
  /** `07:30`, in `timeZone`. */
  time: string;
  timeZone: string;
  recipients: string[];
  language?: 'en' | 'de' | 'nl';
};
export type ReportSchedule = ReportScheduleInput & {
  viewId: string;
  nextRunAt: string;
  lastRunAt: string | null;
  lastResult: string | null;
};

export type WebhookInput = { url: string; format: WebhookFormat; secret?: string };
/** `POST /api/alerts`. A `silent` rule needs `silentDays`. */
export type AlertRuleCreate = {
  name: string;
  when: AlertWhen;
  target?: AlertTarget;
  signal?: AlertSignal;
  crop?: string | null;
  search?: string | null;
  silentDays?: number;
  silentBy?: SilentBy;
  recipients: string[];
  webhooks?: WebhookInput[];
  delivery: AlertDelivery;
  digestHour?: number;
  paused?: boolean;
};
/** `PATCH /api/alerts/<id>`: any field but `when` (a different kind is a new rule). */
export type AlertRuleChange = Partial<Omit<AlertRuleCreate, 'when'>>;
