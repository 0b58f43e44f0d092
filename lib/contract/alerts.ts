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

/** One line of `GET /api/alerts/history`: one rule's finding sent on one channel to one recipient. */
export type AlertHistoryEntry = {
  id: string;
  at: string;
  ruleId: string;
  ruleName: string;
  batchIds: string[];
  /** What fired in words' ingredients: the batches (misses-target, warnings), a crop's signal, a silence. */
  summary: string;
  channel: AlertChannel;
  /** An e-mail address, a webhook's host, or the person (in-app). */
  recipient: string;
  delivered: boolean;
  /** Why a delivery failed, or that it waits for the digest. */
  detail: string | null;
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
export type ReportSchedule = ReportScheduleInput & { viewId: string; nextRunAt: string; lastRunAt: string | null; lastResult: string | null };

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
