import 'server-only';
import type { AlertRule } from '../../contract/alerts';

/** A rule as the activity log keeps it: what it watches and who hears of it, never a webhook's secret. */
export function loggedRule(rule: AlertRule) {
  // The asker's own view of it (subscription) and its bookkeeping are no part of the change.
  const {
    id: _id,
    createdAt: _createdAt,
    createdBy: _createdBy,
    updatedAt: _updatedAt,
    subscription: _subscription,
    receiving: _receiving,
    ...definition
  } = rule;
  return { ...definition, webhooks: rule.webhooks.map(({ url, format }) => ({ url, format })) };
}
