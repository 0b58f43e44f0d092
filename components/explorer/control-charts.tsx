'use client';

import { memo, useEffect, useId, useMemo, useState } from 'react';
import { daysToMs } from '@/lib/explorer/date-range';
import { describeDays, formatDays, parseDays } from '@/lib/explorer/drill';
import { formatValue, METRIC_INFO, METRICS } from '@/lib/explorer/metrics';
import { cachedFor } from '@/lib/explorer/row-cache';
import { cropLabel } from '@/lib/explorer/rows';
import { BASELINE_BATCHES, controlCharts, MIN_BASELINE, RUN_LENGTH, type ControlChart } from '@/lib/explorer/spc';
import type { AnalysisInput } from './analysis';
import { BaselineField } from './baseline-field';
import ControlChartPlot, { ruleOf } from './control-chart-plot';
import { fmtCount, fmtDate } from './format';
import { eachWhenIdle } from './idle';
import { useAfterPaint } from './use-after-paint';
import { IncompleteNote } from './incomplete-note';
import { PENDING, usePrinting } from './printing';
import styles from './control-charts.module.css';

type Props = { input: AnalysisInput };

/** So many out-of-control batches are listed in the table; the count above it names them all. */
const TABLE_LIMIT = 500;

/** What the chart says in words: how many are out of control, or why nothing is judged. */
function verdict(c: ControlChart): string {
  const crop = cropLabel(c.crop);
  if (!c.limits) return `No limits for ${crop}: ${c.baseline.used} batches without warnings in the baseline, ${MIN_BASELINE} needed.`;
  const why = [c.beyond && `${fmtCount(c.beyond)} beyond the limits`, c.run && `${fmtCount(c.run)} in runs of ${RUN_LENGTH} or more on one side of the centre`].filter(Boolean);
  const both = c.beyond + c.run > c.outOfControl ? '; a batch breaking both rules counts once' : '';
  return `${fmtCount(c.outOfControl)} of ${fmtCount(c.points.length)} ${crop} batches out of control${why.length ? ` (${why.join(', ')}${both})` : ''}.`;
}

/**
 * Control charts (issue 10 §5): one crop's individuals chart at a time (nine charts of 20,000 points would
 * cost seconds to draw) and, for every crop, its out-of-control count in a table. Computed once per change of
 * the rows, the metric or the baseline; the crop picked here is this view's own, not a filter (`spc=` in the URL, so a link shows the same chart).
 */
function ControlCharts({ input }: Props) {
  const { zone, colours, view, drill, openBatch, completeness } = input;
  // Deferred: a change of the rows or the metric redraws the other charts first, and these in a task of their
  // own (at 100,000 batches computing these is 50–100 ms, drawing the chart as much again).
  const rows = useAfterPaint(input.rows);
  const metric = useAfterPaint(input.metric);
  const days = useMemo(() => parseDays(view.base), [view.base]);
  const period = useMemo(() => (days ? daysToMs(days.from, days.to, zone) : null), [days, zone]);
  const periodKey = period ? `${period.from}-${period.to}` : 'first';
  const charts = useMemo(() => cachedFor(rows, `spc|${metric}|${periodKey}`, () => controlCharts(rows, metric, period)), [rows, metric, period, periodKey]);
  // The other metrics' charts ahead, in idle moments: switching the Metric then finds them made.
  useEffect(
    () => eachWhenIdle(METRICS.filter((m) => m !== metric).map((m) => () => cachedFor(rows, `spc|${m}|${periodKey}`, () => controlCharts(rows, m, period)))),
    [rows, metric, period, periodKey],
  );
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
  if (!chart) return null;
  const info = METRIC_INFO[metric];
  const total = charts.reduce((n, c) => n + c.outOfControl, 0);
  const first = chart.points[chart.baseline.first], last = chart.points[chart.baseline.last];
  const span = first && last ? ` (${fmtDate(first.row.time, zone)} – ${fmtDate(last.row.time, zone)})` : '';
  const basis = days
    ? `the ${fmtCount(chart.baseline.used)} batches without warnings created ${describeDays(days)}`
    : chart.baseline.used < BASELINE_BATCHES
      ? `all ${fmtCount(chart.baseline.used)} batches without warnings (fewer than ${BASELINE_BATCHES})`
      : `the first ${BASELINE_BATCHES} batches without warnings${span}`;

  return (
    <section className={styles.box} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className={styles.title}>
        Control charts
      </h3>
      <IncompleteNote of={completeness} zone={zone} what="The control charts" />
      <div className={styles.controls}>
        <span>
          <label htmlFor={`${id}-crop`}>Control chart for</label>{' '}
          <select id={`${id}-crop`} value={chart.crop} onChange={(e) => setPicked(e.target.value)}>
            {charts.map((c) => (
              <option key={c.crop} value={c.crop}>
                {cropLabel(c.crop)} ({fmtCount(c.points.length)})
              </option>
            ))}
          </select>
        </span>
        <BaselineField value={days} onChange={(d) => drill({ base: d ? formatDays(d) : undefined })} />
      </div>
      <figure className={styles.chart} aria-labelledby={`${id}-caption`}>
        <figcaption id={`${id}-caption`}>
          Control chart: {info.label}, {cropLabel(chart.crop)} (each batch in time order, limits at ±3σ from the moving range)
        </figcaption>
        <p className={styles.verdict}>{verdict(chart)}</p>
        {chart.limits && (
          <p className={styles.basis}>
            Limits from {basis}: centre {formatValue(metric, chart.limits.centre)}, UCL {formatValue(metric, chart.limits.ucl)}, LCL{' '}
            {formatValue(metric, chart.limits.lcl)}. Batches with warnings are drawn and judged but left out of the limits.
          </p>
        )}
        <button type="button" className="button" aria-pressed={asTable} onClick={() => setAsTable((t) => !t)}>
          Show as table
        </button>
        {asTable ? (
          <OutOfControlTable chart={chart} points={outOfControl} input={input} />
        ) : (
          <>
            {drawn ? (
              <ControlChartPlot chart={drawn} metric={metric} zone={zone} colour={colours.get(drawn.crop) ?? 'var(--fg)'} onOpen={openBatch} />
            ) : (
              <div className={styles.placeholder} {...PENDING} />
            )}
            <p className={styles.legend}>
              <svg width="12" height="12" aria-hidden="true"><path d="M6,1L11,6L6,11L1,6Z" fill="var(--danger)" /></svg> beyond the limits{' '}
              <svg width="12" height="12" aria-hidden="true"><circle cx="6" cy="6" r="3.5" fill="var(--card)" stroke="var(--danger)" strokeWidth="1.5" /></svg> in a run of {RUN_LENGTH}+
              on one side of the centre · shaded: the baseline · click a batch to open it
            </p>
          </>
        )}
      </figure>
      <table className={styles.crops}>
        <caption>
          Out of control per crop ({info.short}): {fmtCount(total)} {total === 1 ? 'batch' : 'batches'} in all
        </caption>
        <thead>
          <tr>
            <th scope="col">Crop</th>
            <th scope="col" className={styles.num}>Batches</th>
            <th scope="col" className={styles.num}>Out of control</th>
            <th scope="col" className={styles.num}>Beyond the limits</th>
            <th scope="col" className={styles.num}>In runs</th>
          </tr>
        </thead>
        <tbody>
          {charts.map((c) => (
            <tr key={c.crop}>
              <th scope="row">
                <button type="button" className={styles.linkButton} aria-current={c === chart ? 'true' : undefined} onClick={() => setPicked(c.crop)}>
                  {cropLabel(c.crop)}
                </button>
              </th>
              <td className={styles.num}>{fmtCount(c.points.length)}</td>
              {c.limits ? (
                <>
                  <td className={styles.num}>{fmtCount(c.outOfControl)}</td>
                  <td className={styles.num}>{fmtCount(c.beyond)}</td>
                  <td className={styles.num}>{fmtCount(c.run)}</td>
                </>
              ) : (
                <td colSpan={3}>too few batches for limits</td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The chart's out-of-control batches as rows; each batch's button opens it, as a click on its mark does. */
function OutOfControlTable({ chart, points, input }: { chart: ControlChart; points: ControlChart['points']; input: AnalysisInput }) {
  if (points.length === 0) return <p className={styles.basis}>No {cropLabel(chart.crop)} batch is out of control.</p>;
  return (
    <div className={styles.tableBox}>
      <table className={styles.table}>
        <caption className="visually-hidden">Out-of-control {cropLabel(chart.crop)} batches</caption>
        <thead>
          <tr>
            <th scope="col">Batch</th>
            <th scope="col">Created</th>
            <th scope="col" className={styles.num}>{METRIC_INFO[input.metric].short}</th>
            <th scope="col">Rule</th>
          </tr>
        </thead>
        <tbody>
          {points.slice(0, TABLE_LIMIT).map((p) => (
            <tr key={p.row.batch.batch_id}>
              <td>
                <button type="button" className={styles.linkButton} onClick={() => input.openBatch(p.row)}>
                  {p.row.batch.batch_name}
                </button>
              </td>
              <td>{fmtDate(p.row.time, input.zone)}</td>
              <td className={styles.num}>{formatValue(input.metric, p.value)}</td>
              <td>{ruleOf(p)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {points.length > TABLE_LIMIT && (
        <p className={styles.basis}>
          The first {TABLE_LIMIT} of {fmtCount(points.length)} are listed; narrow the date range to list the others.
        </p>
      )}
    </div>
  );
}

export default memo(ControlCharts);
