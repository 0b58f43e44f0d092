'use client';

import { useTranslations } from 'use-intl';
import type { AlertDelivery, AlertRule, AlertWhen } from '@/lib/contract/alerts';

/** The message key of each kind of rule (keys stay camelCase; the API's kinds are kebab-case). */
export const WHEN_KEYS = {
  'misses-target': 'missesTarget',
  warnings: 'warnings',
  'control-signal': 'controlSignal',
  silent: 'silent',
} as const satisfies Record<AlertWhen, string>;

/** An hour of the day as a clock reads it: `07:00`. */
export const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** What a rule watches and how it is delivered, in the reader's words. */
export function useRuleWords() {
  const t = useTranslations('alerts.words');
  const metrics = useTranslations('alerts.form.charts');
  const what = (rule: Pick<AlertRule, 'when' | 'target' | 'signal' | 'silentDays' | 'silentBy'>): string => {
    switch (rule.when) {
      case 'misses-target':
        return t(`missesTarget.${rule.target ?? 'any'}`);
      case 'warnings':
        return t('warnings');
      case 'control-signal': {
        const signal = t(`controlSignal.${rule.signal ?? 'any'}`);
        return rule.target && rule.target !== 'any'
          ? `${signal} (${t('chartOf', { metric: metrics(rule.target) })})`
          : signal;
      }
      case 'silent':
        return t(`silent.${rule.silentBy ?? 'crop'}`, { days: rule.silentDays ?? 0 });
    }
  };
  const watches = (rule: AlertRule): string => {
    const parts = [what(rule), rule.crop ? t('crop', { crop: rule.crop }) : t('everyCrop')];
    if (rule.search) parts.push(t('search', { search: rule.search }));
    return parts.join(' · ');
  };
  const delivery = (delivery: AlertDelivery, digestHour: number) =>
    delivery === 'daily' ? t('daily', { time: hourText(digestHour) }) : t(delivery);
  return { what, watches, delivery };
}
