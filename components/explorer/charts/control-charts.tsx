'use client';

import { memo, useEffect, useId, useMemo, useState } from 'react';
import { daysToMs, formatDay } from '@/lib/explorer/date-range';
import { cropName, describeDays, formatDays, parseDays, type DaysDrill } from '@/lib/explorer/drill';
import { formatValue, METRICS } from '@/lib/explorer/metrics';
import { cachedFor } from '@/lib/explorer/row-cache';
import type { Row } from '@/lib/explorer/rows';
import type { Speech } from '@/lib/explorer/speech';
import { BASELINE_BATCHES, controlCharts, MIN_BASELINE, RUN_LENGTH, type ControlChart } from '@/lib/explorer/spc';
import type { Zone } from '@/lib/explorer/zones';
import type { AnalysisInput } from '../analysis/analysis';
import { BaselineField } from '../fields/baseline-field';
import { falseAlarms } from '@/lib/explorer/control/false-alarms';
import { LimitsNote } from './control/limits-note';
import { RulesField } from './control/rules-field';
import ControlChartPlot, { ruleKey } from './control-chart-plot';
import { eachWhenIdle } from '../shared/idle';
import { useSpeech } from '../shared/use-speech';
import { useAfterPaint } from '../shared/use-after-paint';
import { IncompleteNote } from '../range/incomplete-note';
import { PENDING, usePrinting } from '../print/printing';
import styles from './control-charts.module.css';

type Props = { input: AnalysisInput };

/** So many out-of-control batches are listed in the table; the count above it names them all. */
const TABLE_LIMIT = 500;

/** The explorer's range as days (All time: the days of the first and last batch), offered as a baseline. */
function chosenPeriod(window: AnalysisInput['window'], rows: readonly Row[], zone: Zone): DaysDrill | null {
  if (window) return { from: formatDay(window.from, zone), to: formatDay(window.to - 1, zone) };
  if (rows.length === 0) return null;
  return { from: formatDay(rows[0]!.time, zone), to: formatDay(rows[rows.length - 1]!.time, zone) };
}

/** The chart's title: the metric and crop, and when some of the crop's batches have no value, how many and why. */
function caption(c: ControlChart, metric: AnalysisInput['metric'], { f, t }: Speech): string {
  const values = { metric: t(`metrics.${metric}.label`), crop: cropName(c.crop, t) };
  const missing = c.total - c.points.length;
  if (missing === 0) return t('control.caption', values);
  return t('control.captionMissing', {
    ...values,
    drawn: f.count(c.points.length),
    total: f.count(c.total),
    missing,
    missingText: f.count(missing),
    metricInSentence: t(`metrics.${metric}.labelInSentence`),
  });
}

/** What the chart says in words: how many are out of control, or why nothing is judged. */
function verdict(c: ControlChart, { f, t }: Speech): string {
  const crop = cropName(c.crop, t);
  if (!c.limits) return t('control.noLimits', { crop, used: f.count(c.baseline.used), needed: f.count(MIN_BASELINE) });
  const beyond = c.beyond ? t('control.beyond', { count: f.count(c.beyond) }) : null;
  const run = c.run ? t('control.run', { count: f.count(c.run), length: RUN_LENGTH }) : null;
  const why = beyond && run ? t('control.whyBoth', { beyond, run }) : (beyond ?? run);
  const values = { out: f.count(c.outOfControl), all: f.count(c.points.length), crop };
  if (!why) return t('control.verdict', values);
  return t(c.beyond + c.run > c.outOfControl ? 'control.verdictWhyBoth' : 'control.verdictWhy', { ...values, why });
}

/**
 * Control charts: one crop's individuals chart at a time (nine charts of 20,000 points would
 * cost seconds to draw) and, for every crop, its out-of-control count in a table. Computed once per change of
 * the rows, the metric or the baseline; the crop picked here is this view's own, not a filter (`spc=` in the URL, so a link shows the same chart).
 */
function ControlCharts({ input }: Props) {
  const { zone, colours, view, drill, openBatch, completeness } = input;
  const say = useSpeech();
  const { f, t } = say;
  // Deferred: a change of the rows or the metric redraws the other charts first, and these in a task of their
  // own (at 100,000 batches computing these is 50–100 ms, drawing the chart as much again).
  const rows = useAfterPaint(input.rows);
  const metric = useAfterPaint(input.metric);
  const days = useMemo(() => parseDays(view.base), [view.base]);
  const period = useMemo(() => (days ? daysToMs(days.from, days.to, zone) : null), [days, zone]);
  const rules = view.rules;
  const periodKey = `${period ? `${period.from}-${period.to}` : 'first'}|${rules}`;
  const charts = useMemo(
    () => cachedFor(rows, `spc|${metric}|${periodKey}`, () => controlCharts(rows, metric, period, rules)),
    [rows, metric, period, periodKey, rules],
  );
  // The other metrics' charts ahead, in idle moments: switching the Metric then finds them made.
  useEffect(
    () =>
      eachWhenIdle(
        METRICS.filter((m) => m !== metric).map(
          (m) => () => cachedFor(rows, `spc|${m}|${periodKey}`, () => controlCharts(rows, m, period, rules)),
        ),
      ),
    [rows, metric, period, periodKey, rules],
  );
  const chosen = useMemo(() => chosenPeriod(input.window, rows, zone), [input.window, rows, zone]);
  const picked = view.spc;
  const setPicked = (spc: string) => drill({ spc });
  const [asTable, setAsTable] = useState(false);
  const id = useId();
  const chart = charts.find((c) => c.crop === picked) ?? charts.find((c) => c.crop === view.crop) ?? charts[0];
  const outOfControl = useMemo(() => chart?.points.filter((p) => p.beyond || p.run) ?? [], [chart]);
  // The chart is drawn a task after its figures are known (each alone stays well under 200 ms); until then the
  // previous one stays.
  const [later, setDrawn] = useState<ControlChart | null>(null);
  const drawn = usePrinting() ? (chart ?? null) : later;
  useEffect(() => {
    const timer = setTimeout(() => setDrawn(chart ?? null), 0);
    return () => clearTimeout(timer);
  }, [chart]);
  if (!chart) {
    if (!input.noMatch || rows.length > 0) return null;
    return (
      <section className={styles.box} aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`} className={styles.title}>
          {t('control.heading')}
        </h3>
        <p className={styles.basis}>{t(`noMatch.${input.noMatch}`)}</p>
      </section>
    );
  }
  const total = charts.reduce((n, c) => n + c.outOfControl, 0);
  const first = chart.points[chart.baseline.first],
    last = chart.points[chart.baseline.last];
  const basis = days
    ? t('control.basisPeriod', { count: f.count(chart.baseline.used), days: describeDays(days, f) })
    : chart.baseline.used < BASELINE_BATCHES
      ? t('control.basisFew', { count: f.count(chart.baseline.used), first: f.count(BASELINE_BATCHES) })
      : first && last
        ? t('control.basisFirstSpan', {
            first: f.count(BASELINE_BATCHES),
            from: f.date(first.row.time, zone),
            to: f.date(last.row.time, zone),
          })
        : t('control.basisFirst', { first: f.count(BASELINE_BATCHES) });
  const setBase = (base: string | undefined) => drill({ base });

  return (
    <section className={styles.box} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className={styles.title}>
        {t('control.heading')}
      </h3>
      <IncompleteNote of={completeness} zone={zone} what="The control charts" />
      <div className={styles.controls}>
        <span>
          <label htmlFor={`${id}-crop`}>{t('control.chartFor')}</label>{' '}
          <select id={`${id}-crop`} value={chart.crop} onChange={(e) => setPicked(e.target.value)}>
            {charts.map((c) => (
              <option key={c.crop} value={c.crop}>
                {t('control.option', { crop: cropName(c.crop, t), count: f.count(c.total) })}
              </option>
            ))}
          </select>
        </span>
        <BaselineField value={days} onChange={(d) => setBase(d ? formatDays(d) : undefined)} />
        <RulesField value={rules} onChange={(r) => drill({ rules: r })} />
      </div>
      <figure className={styles.chart} aria-labelledby={`${id}-caption`}>
        <figcaption id={`${id}-caption`}>{caption(chart, metric, say)}</figcaption>
        <p className={styles.verdict}>{verdict(chart, say)}</p>
        {chart.limits && (
          <LimitsNote
            chart={{ ...chart, limits: chart.limits }}
            metric={metric}
            basis={basis}
            period={chosen}
            periodInUse={days !== null && chosen !== null && days.from === chosen.from && days.to === chosen.to}
            onBaseline={setBase}
          />
        )}
        <button type="button" className="button" aria-pressed={asTable} onClick={() => setAsTable((on) => !on)}>
          {t('showAsTable')}
        </button>
        {asTable ? (
          <OutOfControlTable chart={chart} points={outOfControl} input={input} />
        ) : (
          <>
            {drawn ? (
              <ControlChartPlot
                chart={drawn}
                metric={metric}
                zone={zone}
                colour={colours.get(drawn.crop) ?? 'var(--fg)'}
                onOpen={openBatch}
              />
            ) : (
              <div className={styles.placeholder} {...PENDING} />
            )}
            <p className={styles.legend}>
              <svg width="12" height="12" aria-hidden="true">
                <path d="M6,1L11,6L6,11L1,6Z" fill="var(--danger)" />
              </svg>{' '}
              {t('control.legendBeyond')}{' '}
              {rules === 'runs' && (
                <>
                  <svg width="12" height="12" aria-hidden="true">
                    <circle cx="6" cy="6" r="3.5" fill="var(--card)" stroke="var(--danger)" strokeWidth="1.5" />
                  </svg>{' '}
                  {t('control.legendRun', { length: RUN_LENGTH })}{' '}
                </>
              )}
              {t('control.legendBaseline')}
              <span className="screen-only"> · {t('control.openHint')}</span>
            </p>
          </>
        )}
      </figure>
      <table className={styles.crops}>
        <caption>
          {t('control.total', { metric: t(`metrics.${metric}.short`), total, totalText: f.count(total) })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('cropHeader')}</th>
            <th scope="col" className={styles.num}>
              {t('batchesHeader')}
            </th>
            <th scope="col" className={styles.num}>
              {t('control.outOfControl')}
            </th>
            {rules === 'runs' && (
              <th scope="col" className={styles.num}>
                {t('control.beyondHeader')}
              </th>
            )}
            {rules === 'runs' && (
              <th scope="col" className={styles.num}>
                {t('control.inRuns')}
              </th>
            )}
            <th scope="col" className={styles.num}>
              {t('control.byChance')}
            </th>
          </tr>
        </thead>
        <tbody>
          {charts.map((c) => (
            <tr key={c.crop}>
              <th scope="row">
                <button
                  type="button"
                  className={styles.linkButton}
                  aria-current={c === chart ? 'true' : undefined}
                  onClick={() => setPicked(c.crop)}
                >
                  {cropName(c.crop, t)}
                </button>
              </th>
              <td className={styles.num}>{f.count(c.total)}</td>
              {c.limits ? (
                <>
                  <td className={styles.num}>{f.count(c.outOfControl)}</td>
                  {rules === 'runs' && <td className={styles.num}>{f.count(c.beyond)}</td>}
                  {rules === 'runs' && <td className={styles.num}>{f.count(c.run)}</td>}
                  <td className={styles.num}>
                    {f.decimal((falseAlarms(rules, c.baseline.used).perHundred * c.points.length) / 100)}
                  </td>
                </>
              ) : (
                <td colSpan={rules === 'runs' ? 4 : 2}>{t('control.tooFew')}</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The chart's out-of-control batches as rows; each batch's button opens it, as a click on its mark does. */
function OutOfControlTable({
  chart,
  points,
  input,
}: {
  chart: ControlChart;
  points: ControlChart['points'];
  input: AnalysisInput;
}) {
  const { f, t } = useSpeech();
  const crop = cropName(chart.crop, t);
  if (points.length === 0) return <p className={styles.basis}>{t('control.noneOut', { crop })}</p>;
  return (
    <div className={styles.tableBox}>
      <table className={styles.table}>
        <caption className="visually-hidden">{t('control.tableCaption', { crop })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('control.batch')}</th>
            <th scope="col">{t('control.created')}</th>
            <th scope="col" className={styles.num}>
              {t(`metrics.${input.metric}.short`)}
            </th>
            <th scope="col">{t('control.rule')}</th>
          </tr>
        </thead>
        <tbody>
          {points.slice(0, TABLE_LIMIT).map((p) => (
            <tr key={p.row.id}>
              <td>
                <button type="button" className={styles.linkButton} onClick={() => input.openBatch(p.row)}>
                  {p.row.name}
                </button>
              </td>
              <td>{f.dateTime(p.row.time, input.zone)}</td>
              <td className={styles.num}>{formatValue(input.metric, p.value, f)}</td>
              <td>{t(ruleKey(p))}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {points.length > TABLE_LIMIT && (
        <p className={styles.basis}>
          {t('control.listed', { limit: f.count(TABLE_LIMIT), count: f.count(points.length) })}
        </p>
      )}
    </div>
  );
}

export default memo(ControlCharts);
