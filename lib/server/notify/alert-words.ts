import 'server-only';
import { createTranslator } from 'use-intl/core';
import type { Batch } from '@/lib/contract/batch';
import { targetFor, TARGET_METRICS, type TargetMetric, type Targets } from '@/lib/contract/targets';
import { digitsBesideTarget } from '@/lib/explorer/targets/digits-beside-target';
import { sayVerdict } from '@/lib/explorer/verdict';
import { formatsFor, type Formats } from '@/lib/i18n/formats';
import type { Language } from '@/lib/i18n/languages';
import { MESSAGES } from '@/lib/i18n/messages';
import type { AlertMessage, FiredBatch, Finding } from '../alerts/message';
import { MAIL_MESSAGES } from './mail-catalogue';

/** The figure of a batch a target of `metric` judges, as a number (null: none recorded). */
export function figureOf(batch: Batch, metric: TargetMetric): number | null {
  const raw =
    metric === 'germination'
      ? batch.avg_germination_rate
      : metric === 'usable'
        ? batch.avg_usable_seedling_rate
        : batch.avg_coefficient_of_variation;
  return raw === null || raw === '' || !Number.isFinite(Number(raw)) ? null : Number(raw);
}

/** A time zone Intl knows, else UTC (a zone saved before an Intl update dropped it must not stop a delivery). */
export function knownZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

export type AlertWords = ReturnType<typeof alertWords>;

/** What an alert says, in a reader's language and zone: the words every channel shares (e-mail in the recipient's language, webhooks in English). */
export function alertWords(language: Language, zone: string) {
  const tz = knownZone(zone);
  const messages = {
    mail: MAIL_MESSAGES[language],
    explorer: MESSAGES[language].explorer,
    analysis: MESSAGES[language].analysis,
  };
  const t = createTranslator({ locale: language, messages });
  const f: Formats = formatsFor(language);
  const mail = (key: string, values?: Record<string, string | number>) =>
    t(`mail.${key}` as never, values as never) as string;
  const metricName = (metric: TargetMetric) => t(`explorer.columns.${metric}` as never) as string;
  const time = (iso: string) => f.dateTime(Date.parse(iso), tz);

  /** The finding in one sentence: `3 new batches miss their targets`, `Lettuce: 1 batch beyond the control limits of Germination`. */
  function lead(message: AlertMessage, finding: Finding = message.finding, count?: number): string {
    switch (finding.kind) {
      case 'batches': {
        const n = count ?? finding.total;
        if (message.rule.when === 'warnings') return mail('alert.warnings', { count: n });
        return mail(`alert.misses.${message.rule.target ?? 'any'}`, { count: n });
      }
      case 'control-signal':
        return mail(finding.signal === 'run' ? 'alert.run' : 'alert.limits', {
          crop: finding.crop,
          count: count ?? finding.total,
          metric: metricName(finding.metric),
        });
      case 'silent':
        return finding.by === 'crop'
          ? mail('alert.silentCrop', { crop: finding.who, days: finding.days })
          : mail('alert.silentScanner', { who: finding.who, days: finding.days });
    }
  }

  /** A figure in percent with the digits its target needs not to be contradicted. */
  function figure(value: number | null, target: number | null, metric: TargetMetric): string {
    return f.percent(
      value,
      value === null ? 1 : digitsBesideTarget(value, target, metric === 'cv' ? 'lower' : 'higher'),
    );
  }

  /** The batch's figures (the three a target can judge), each marked when it missed its target. */
  function figures(fired: FiredBatch, targets: Targets) {
    return TARGET_METRICS.map((metric) => {
      const judged = fired.verdicts.find((v) => v.metric === metric);
      const target = judged?.target ?? targetFor(targets, fired.batch.crop_type, metric);
      return {
        metric,
        label: metricName(metric),
        value: figure(figureOf(fired.batch, metric), target, metric),
        missed: judged?.misses ?? false,
      };
    });
  }

  /** The verdicts a batch missed, as the page says them (`Below the Lettuce germination target of 80%`). */
  function missedVerdicts(fired: FiredBatch): string[] {
    return fired.verdicts
      .filter((v) => v.misses)
      .map((v) =>
        sayVerdict(
          { kind: 'misses', metric: v.metric, crop: v.crop, target: v.target, value: v.value, misses: true },
          (key, values) => t(`explorer.verdict.${key}` as never, values as never) as string,
          (n) => f.percentUpTo(n),
        ),
      );
  }

  /** A target for the targets table: `80%`, or "not set". */
  const target = (value: number | null) => (value === null ? mail('alert.notSet') : f.percentUpTo(value));

  const cropColumn = t('explorer.columns.crop');
  return { language, zone: tz, f, mail, metricName, cropColumn, time, lead, figures, missedVerdicts, target };
}
