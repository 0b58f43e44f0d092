import 'server-only';
import type { AlertRule } from '../../contract/alerts';

/** A rule as the activity log keeps it: what it watches and who hears of it, never a webhook's secret. */
export function loggedRule(rule: AlertRule) {
  return {
    name: rule.name,
    when: rule.when,
    target: rule.target,
    signal: rule.signal,
    crop: rule.crop,
    search: rule.search,
    silentDays: rule.silentDays,
    silentBy: rule.silentBy,
    recipients: rule.recipients,
    webhooks: rule.webhooks.map(({ url, format }) => ({ url, format })),
    delivery: rule.delivery,
    digestHour: rule.digestHour,
    paused: rule.paused,
  };
}
