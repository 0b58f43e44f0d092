import 'server-only';
import * as z from 'zod/mini';
import {
  ALERT_DELIVERY,
  ALERT_SIGNALS,
  ALERT_TARGETS,
  ALERT_WHEN,
  MAX_ALERT_NAME,
  MAX_ALERT_RECIPIENTS,
  MAX_ALERT_WEBHOOKS,
  MAX_SEARCH,
  REPORT_CADENCES,
  SILENT_BY,
  WEBHOOK_FORMATS,
  type AlertRuleChange,
  type AlertRuleCreate,
  type ReportScheduleInput,
} from '../../contract/alerts';

/** What `/api/alerts` and a view's schedule are sent, checked (the types are the contract's, lib/contract/alerts.ts). */

/** An e-mail address as people type it: trimmed, one @, no spaces; compared in lower case. */
export const EmailAddress = z
  .string()
  .check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(254, 'an e-mail address has at most 254 characters'),
    z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'expected an e-mail address such as name@example.com'),
  );

/** A webhook as a rule is sent it; the secret signs every request (X-Signature-256) and is never answered back. */
export const WebhookInputSchema = z.strictObject({
  url: z
    .string()
    .check(
      z.maxLength(2000, 'a webhook URL has at most 2000 characters'),
      z.regex(/^https?:\/\//i, 'expected an http or https URL'),
    ),
  format: z.enum(WEBHOOK_FORMATS),
  /** Omitted on a change: the secret this rule already holds for the same URL stays. */
  secret: z.optional(
    z
      .string()
      .check(
        z.minLength(16, 'a webhook secret has at least 16 characters'),
        z.maxLength(200, 'a webhook secret has at most 200 characters'),
      ),
  ),
});

const ruleFields = {
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'a rule needs a name'),
      z.maxLength(MAX_ALERT_NAME, `a name has at most ${MAX_ALERT_NAME} characters`),
    ),
  when: z.enum(ALERT_WHEN),
  target: z.optional(z.enum(ALERT_TARGETS)),
  signal: z.optional(z.enum(ALERT_SIGNALS)),
  crop: z.optional(
    z.nullable(z.string().check(z.trim(), z.minLength(1, 'a crop has a name; null for every crop'), z.maxLength(100))),
  ),
  search: z.optional(
    z.nullable(
      z.string().check(z.trim(), z.maxLength(MAX_SEARCH, `a search text has at most ${MAX_SEARCH} characters`)),
    ),
  ),
  silentDays: z.optional(z.int().check(z.minimum(1, 'at least 1 day'), z.maximum(365, 'at most 365 days'))),
  silentBy: z.optional(z.enum(SILENT_BY)),
  recipients: z
    .array(EmailAddress)
    .check(z.maxLength(MAX_ALERT_RECIPIENTS, `at most ${MAX_ALERT_RECIPIENTS} recipients`)),
  webhooks: z.optional(
    z.array(WebhookInputSchema).check(z.maxLength(MAX_ALERT_WEBHOOKS, `at most ${MAX_ALERT_WEBHOOKS} webhooks`)),
  ),
  delivery: z.enum(ALERT_DELIVERY),
  /** The hour (0–23, in each recipient's zone) a daily digest goes out; 7 when not said. */
  digestHour: z.optional(z.int().check(z.minimum(0), z.maximum(23))),
  /** A paused rule is kept but not checked. */
  paused: z.optional(z.boolean()),
};

/** `POST /api/alerts`. A `silent` rule needs `silentDays`; the other kinds must not carry it. */
export const AlertRuleCreateSchema = z.strictObject(ruleFields);

/** `PATCH /api/alerts/<id>`: any of the fields; `when` cannot change (make a new rule). */
export const AlertRuleChangeSchema = z.strictObject({
  name: z.optional(ruleFields.name),
  target: ruleFields.target,
  signal: ruleFields.signal,
  crop: ruleFields.crop,
  search: ruleFields.search,
  silentDays: ruleFields.silentDays,
  silentBy: ruleFields.silentBy,
  recipients: z.optional(ruleFields.recipients),
  webhooks: ruleFields.webhooks,
  delivery: z.optional(ruleFields.delivery),
  digestHour: ruleFields.digestHour,
  paused: ruleFields.paused,
});

/** `PUT /api/alerts/<id>/subscription`: the asker's own choice for a rule. */
export const SubscriptionSchema = z.strictObject({ state: z.enum(['subscribed', 'muted', 'none']) });

export const ReportScheduleSchema = z.strictObject({
  cadence: z.enum(REPORT_CADENCES),
  /** 1 (Monday) to 7 (Sunday), for weekly reports. */
  weekday: z.optional(z.int().check(z.minimum(1), z.maximum(7))),
  /** 1 to 28, for monthly reports (every month has it). */
  dayOfMonth: z.optional(z.int().check(z.minimum(1), z.maximum(28))),
  time: z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected a time such as 07:30')),
  timeZone: z.string().check(z.minLength(1), z.maxLength(64)),
  recipients: z
    .array(EmailAddress)
    .check(z.minLength(1, 'a report needs a recipient'), z.maxLength(MAX_ALERT_RECIPIENTS)),
  language: z.optional(z.enum(['en', 'de', 'nl'])),
});

// The contract's types and these schemas stay the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameCreate: Same<z.infer<typeof AlertRuleCreateSchema>, AlertRuleCreate> = true;
const sameChange: Same<z.infer<typeof AlertRuleChangeSchema>, AlertRuleChange> = true;
const sameSchedule: Same<z.infer<typeof ReportScheduleSchema>, ReportScheduleInput> = true;
void [sameCreate, sameChange, sameSchedule];
