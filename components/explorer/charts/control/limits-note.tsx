'use client';

import { falseAlarms } from '@/lib/explorer/control/false-alarms';
import { RUN } from '@/lib/explorer/control/rules';
import { cropName, describeDays, formatDays, type DaysDrill } from '@/lib/explorer/drill';
import { formatValue, METRIC_INFO, type Metric } from '@/lib/explorer/metrics';
import { BASELINE_BATCHES, RECOMMENDED_BASELINE, type ControlChart, type Limits } from '@/lib/explorer/spc';
import type { Speech } from '@/lib/explorer/speech';
import { useSpeech } from '../../shared/use-speech';
import styles from '../control-charts.module.css';

type Props = {
  chart: ControlChart & { limits: Limits };
  metric: Metric;
  /** How the baseline was chosen, in words (`the first 50 batches without warnings (…)`). */
  basis: string;
  /** The explorer's date range as days, offered as the baseline when the one in use is short. */
  period: DaysDrill | null;
  /** Whether the baseline is that period already. */
  periodInUse: boolean;
  onBaseline: (base: string) => void;
};

/** A difference of the metric: percentage points for percents, mm² for sizes. */
function difference(metric: Metric, v: number, { f, t }: Speech): string {
  return METRIC_INFO[metric].unit === '%' ? t('pp', { change: f.number(v) }) : formatValue(metric, v, f);
}

/**
 * What a control chart's limits rest on, in plain words: the batches they came from, how the centre and the
 * spread were estimated, a limit past the scale, the rules in force and how often they alarm by chance with a
 * baseline this long; and, below RECOMMENDED_BASELINE batches, the advice to take a longer one.
 */
export function LimitsNote({ chart, metric, basis, period, periodInUse, onBaseline }: Props) {
  const say = useSpeech();
  const { f, t } = say;
  const { limits, baseline, rules } = chart;
  const value = (v: number) => formatValue(metric, v, f);
  const rate = METRIC_INFO[metric].rate;
  const alarms = falseAlarms(rules, baseline.used);
  const steadier = falseAlarms(rules, RECOMMENDED_BASELINE);
  const crop = cropName(chart.crop, t);
  const short = baseline.used < RECOMMENDED_BASELINE;
  // The chosen period gives more batches only when the crop has clean batches outside the baseline.
  const more = !periodInUse && period !== null && baseline.clean > baseline.used;
  return (
    <div className={styles.basis} data-part="limits-note">
      <p>
        {t('control.how', {
          basis,
          centre: value(limits.centre),
          mr: difference(metric, limits.mrBar, say),
          sigma: difference(metric, limits.sigma, say),
          ucl: value(limits.ucl),
          lcl: value(limits.lcl),
        })}
        {baseline.warned > 0 &&
          ` ${t('control.leftOut', { count: baseline.warned, countText: f.count(baseline.warned) })}`}
        {rate && limits.ucl > 100 && ` ${t('control.pastTop', { edge: value(100) })}`}
        {limits.lcl < 0 && ` ${t('control.pastBottom', { edge: value(0) })}`}
      </p>
      <p data-part="false-alarms">
        {t(rules === 'runs' ? 'control.ruleRuns' : 'control.ruleLimits', { length: RUN })}{' '}
        {t('control.falseAlarms', {
          count: f.count(baseline.used),
          perHundred: f.number(alarms.perHundred, alarms.perHundred < 1 ? 2 : 1),
          chance: f.percentUpTo(100 * alarms.inHundred, 0),
        })}
      </p>
      {short && (
        <p className={styles.advice} data-part="advice">
          {t('control.shortBaseline', {
            recommended: f.count(RECOMMENDED_BASELINE),
            better: f.number(steadier.perHundred, steadier.perHundred < 1 ? 2 : 1),
          })}{' '}
          {more ? (
            <button type="button" className="button" onClick={() => onBaseline(formatDays(period))}>
              {t('control.usePeriod', { days: describeDays(period, f), count: f.count(baseline.clean) })}
            </button>
          ) : (
            t('control.widenRange', { count: f.count(baseline.clean), crop, first: f.count(BASELINE_BATCHES) })
          )}
        </p>
      )}
    </div>
  );
}
