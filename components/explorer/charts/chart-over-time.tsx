'use client';

import { memo, useMemo, useRef, useState } from 'react';
import { CartesianGrid, Line, LineChart, ReferenceArea, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { Targets } from '@/lib/contract';
import type { Formats } from '@/lib/i18n/formats';
import { AGGREGATE_KIND, bucketDays, type TimeSeries } from '@/lib/explorer/aggregate';
import { cropName, describeBucket, formatDays } from '@/lib/explorer/drill';
import { dateTickLabels } from '@/lib/explorer/charts/date-ticks';
import {
  axisTitle,
  formatTick,
  formatValue,
  METRIC_INFO,
  metricTarget,
  niceAxis,
  targetKind,
  type Metric,
} from '@/lib/explorer/metrics';
import { cropOfKey } from '@/lib/explorer/rows';
import type { Zone } from '@/lib/explorer/zones';
import type { DrillTo } from '../analysis/analysis';
import { AXIS, ChartFrame, TOOLTIP } from './chart-frame';
import TimePanel, { isolated } from '../range/time-panel';
import { useSpeech } from '../shared/use-speech';
import styles from '../view/explorer.module.css';
import { FitWidth } from '../table/fit-width';

type Props = {
  series: TimeSeries;
  /** The comparison period per crop on the same buckets, and its name; null: no comparison (or not all loaded). */
  compared: { label: string; byCrop: ReadonlyMap<string, readonly (number | null)[]> } | null;
  metric: Metric;
  zone: Zone;
  targets: Targets;
  colours: ReadonlyMap<string, string>;
  mode: 'panels' | 'focus';
  /** Crop keys in colour in focus mode (empty: the three with most batches). */
  focus: readonly string[];
  drill: DrillTo;
  incomplete: boolean;
  /** What to say when the filters leave no batch at all (`No batch matches the search.`); null: say there is no value. */
  noMatch: string | null;
};

/** Date ticks in the reader's locale, the year written out where it starts (`Dec 29, 2025`, `Jan 5, 2026`, `Jan 12`) or `May 2026` for months. */
function tickFormat(ticks: readonly number[], bucket: TimeSeries['bucket'], zone: Zone, f: Formats) {
  const labels = dateTickLabels(ticks, zone, f, bucket === 'month');
  return (t: number) => labels.get(t) ?? '';
}

/** At most ~8 ticks, on bucket starts. */
function ticksOf(starts: readonly number[]): number[] {
  const step = Math.max(1, Math.ceil(starts.length / 8));
  return starts.filter((_, i) => i % step === 0);
}

/**
 * The value axis of `crops` (every panel's, or one crop's): the data and the targets, on round ticks, within the
 * metric's scale.
 */
function valueAxis(crops: TimeSeries['crops'], targets: readonly (number | null)[], rate: boolean) {
  let lo = Infinity,
    hi = -Infinity;
  for (const c of crops)
    for (const v of c.values)
      if (v !== null) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
  for (const t of targets)
    if (t !== null) {
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  if (!Number.isFinite(lo)) return niceAxis(0, rate ? 100 : 1);
  return niceAxis(lo, hi, 4, 0, rate ? 100 : Infinity);
}

/** The runs of buckets that were not wholly loaded, as bands. */
function gapBands(series: TimeSeries): { x1: number; x2: number }[] {
  const bands: { x1: number; x2: number }[] = [];
  series.gaps.forEach((gap, i) => {
    if (!gap) return;
    const last = bands[bands.length - 1];
    if (last && last.x2 === series.starts[i]) last.x2 = series.ends[i]!;
    else bands.push({ x1: series.starts[i]!, x2: series.ends[i]! });
  });
  return bands;
}

type Drag = { from: number; to: number } | null;

/**
 * Drag across the focus chart's time axis to set the date range (`onRange`); a click (no drag) drills into
 * the bucket under the pointer (`onPick`). Bucket indices come from recharts' active tooltip index (the data has
 * one entry per bucket). The panels do the same in TimePanel, with the same two callbacks.
 */
function useTimeDrag(series: TimeSeries, onPick: (i: number) => void, onRange: (lo: number, hi: number) => void) {
  const [drag, setDrag] = useState<Drag>(null);
  const dragRef = useRef<Drag>(null);
  const indexOf = (state: { activeTooltipIndex?: number | string | null | undefined }) => {
    const i = Number(state?.activeTooltipIndex);
    return Number.isInteger(i) && i >= 0 && i < series.starts.length ? i : null;
  };
  const set = (d: Drag) => {
    dragRef.current = d;
    setDrag(d);
  };
  return {
    band:
      drag && drag.from !== drag.to
        ? { x1: series.starts[Math.min(drag.from, drag.to)]!, x2: series.ends[Math.max(drag.from, drag.to)]! }
        : null,
    handlers: {
      onMouseDown: (state: { activeTooltipIndex?: number | string | null }) => {
        const i = indexOf(state);
        if (i !== null) set({ from: i, to: i });
      },
      onMouseMove: (state: { activeTooltipIndex?: number | string | null }) => {
        const i = indexOf(state);
        if (dragRef.current && i !== null && i !== dragRef.current.to) set({ ...dragRef.current, to: i });
      },
      onMouseUp: () => {
        const d = dragRef.current;
        set(null);
        if (!d) return;
        if (d.from === d.to) onPick(d.from);
        else onRange(Math.min(d.from, d.to), Math.max(d.from, d.to));
      },
      onMouseLeave: () => set(null),
    },
  };
}

function OverTime({
  series,
  compared,
  metric,
  zone,
  targets,
  colours,
  mode: chosenMode,
  focus,
  drill,
  incomplete,
  noMatch,
}: Props) {
  const say = useSpeech();
  const { f, t } = say;
  const info = METRIC_INFO[metric];
  const label = t(`metrics.${metric}.label`);
  const short = t(`metrics.${metric}.short`);
  const aggregate = t(`aggregate.${AGGREGATE_KIND[metric]}`);
  const bucketWord = t(`bucket.${series.bucket}`);
  const aBucket = t(`bucketA.${series.bucket}`);
  const target = t(`targetWord.${targetKind(metric)}`);
  const value = (v: number) => formatValue(metric, v, f);
  // Sizes differ between crops by an order of magnitude (cucumber against petunia): each crop on its own axis.
  const own = info.better === null;
  const mode = own ? 'panels' : chosenMode;
  const daysOf = (i: number) => bucketDays(series.starts[i]!, series.ends[i]!, zone);
  const full = (ms: number) => describeBucket(daysOf(series.starts.indexOf(ms)), series.bucket, say);
  const cropTargets = useMemo(
    () => series.crops.map((c) => metricTarget(targets, cropOfKey(c.crop), metric)),
    [series, targets, metric],
  );
  const yAxis = useMemo(() => valueAxis(series.crops, cropTargets, info.rate), [series, cropTargets, info.rate]);
  const ownAxes = useMemo(
    () => (own ? series.crops.map((c, i) => valueAxis([c], [cropTargets[i] ?? null], info.rate)) : null),
    [own, series, cropTargets, info.rate],
  );
  const x: [number, number] = [series.starts[0] ?? 0, series.ends[series.ends.length - 1] ?? 1];
  const ticks = ticksOf(series.starts);
  const tick = tickFormat(ticks, series.bucket, zone, f);
  const bands = gapBands(series);
  const pickBucket = (i: number, crop: string | null) =>
    drill({ days: formatDays(daysOf(i)), ...(crop !== null ? { crop } : {}) });
  const setRange = (lo: number, hi: number) => drill({ from: daysOf(lo).from, to: daysOf(hi).to, days: undefined });
  const { band, handlers } = useTimeDrag(series, (i) => pickBucket(i, null), setRange);
  const many = series.starts.length > 60;
  const shown = focus.length ? focus : series.crops.slice(0, 3).map((c) => c.crop);
  const drawable = series.crops.some((c) => c.values.some((v) => v !== null));
  const fmt = (v: unknown) => (typeof v === 'number' ? value(v) : '—');

  // A point is drawn where a line cannot show it: a bucket with no neighbour, or every bucket when there are few.
  const dot = (values: readonly (number | null)[], colour: string) =>
    function Dot(props: { cx?: number; cy?: number; index?: number }) {
      const i = props.index ?? -1;
      if (props.cx === undefined || props.cy === undefined || values[i] === null || values[i] === undefined)
        return <g />;
      const alone = isolated(values, i);
      if (many && !alone) return <g />;
      return (
        <circle cx={props.cx} cy={props.cy} r={alone ? 3.5 : 2.5} fill={colour} stroke="var(--card)" strokeWidth={1} />
      );
    };

  const axes = (height: number, compact: boolean) => (
    <>
      <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
      <XAxis
        dataKey="t"
        type="number"
        scale="time"
        domain={x}
        ticks={ticks}
        tickFormatter={tick}
        {...AXIS}
        tick={{ ...AXIS.tick, fontSize: compact ? 10 : 12 }}
        height={compact ? 22 : 30}
      />
      <YAxis
        domain={yAxis.domain}
        ticks={yAxis.ticks}
        tickFormatter={(v: number) => formatTick(metric, v, f)}
        {...AXIS}
        tick={{ ...AXIS.tick, fontSize: compact ? 10 : 12 }}
        width={compact ? 40 : 60}
        allowDataOverflow
        label={
          compact
            ? undefined
            : {
                value: axisTitle(metric, say),
                angle: -90,
                position: 'insideLeft',
                fill: 'var(--fg)',
                fontSize: 12,
                dx: 4,
                dy: height / 4,
              }
        }
      />
      {bands.map((g) => (
        <ReferenceArea
          key={g.x1}
          x1={g.x1}
          x2={g.x2}
          ifOverflow="hidden"
          fill="var(--muted)"
          fillOpacity={0.15}
          label={{ value: t('notLoaded'), fill: 'var(--fg)', position: 'insideTop', fontSize: 11 }}
        />
      ))}
      {band && (
        <ReferenceArea x1={band.x1} x2={band.x2} fill="var(--accent)" fillOpacity={0.15} stroke="var(--accent)" />
      )}
      <Tooltip {...TOOLTIP} labelFormatter={(ms) => full(Number(ms))} formatter={(v, name) => [fmt(v), name]} />
    </>
  );

  const titleValues = { metric: label, aggregate: t(`bucketAggregate.${series.bucket}.${AGGREGATE_KIND[metric]}`) };
  const title = own
    ? t('overTime.titlePanelsOwn', titleValues)
    : mode === 'panels'
      ? t('overTime.titlePanels', titleValues)
      : t('overTime.title', titleValues);
  // No layout to choose where every crop needs its own axis.
  const modeSwitch = own ? undefined : (
    <label>
      {t('overTime.layout')}{' '}
      <select value={mode} onChange={(e) => drill({ chart: e.target.value as 'panels' | 'focus' })}>
        <option value="panels">{t('overTime.panels')}</option>
        <option value="focus">{t('overTime.focus')}</option>
      </select>
    </label>
  );
  const table = () => (
    <table>
      <caption className="visually-hidden">{t('overTime.caption', { metric: label, bucket: bucketWord })}</caption>
      <thead>
        <tr>
          <th scope="col">{t('overTime.rowHeader', { bucket: bucketWord })}</th>
          <th scope="col" className="num">
            {t('overTime.valueHeader', { metric: short, aggregate })}
          </th>
          <th scope="col" className="num">
            {t('batchesHeader')}
          </th>
          <th scope="col" className="num">
            {t(`targetHeader.${targetKind(metric)}`)}
          </th>
        </tr>
      </thead>
      <tbody>
        {series.crops.flatMap((c, ci) =>
          c.values.map((v, i) =>
            c.counts[i] === 0 && v === null ? null : (
              <tr key={`${c.crop}-${i}`}>
                <th scope="row">
                  <button type="button" className={styles.linkButton} onClick={() => pickBucket(i, c.crop)}>
                    {t('overTime.row', {
                      crop: cropName(c.crop, t),
                      bucket: describeBucket(daysOf(i), series.bucket, say),
                    })}
                  </button>
                </th>
                <td className="num">{v === null ? (series.gaps[i] ? t('notLoaded') : '—') : value(v)}</td>
                <td className="num">{f.count(c.counts[i]!)}</td>
                <td className="num">{cropTargets[ci] == null ? '—' : value(cropTargets[ci])}</td>
              </tr>
            ),
          ),
        )}
      </tbody>
    </table>
  );

  if (!drawable) {
    return (
      <ChartFrame id="chart-time" title={title} incomplete={incomplete} controls={modeSwitch} table={table} wide>
        <p className={styles.chartEmpty}>
          {incomplete
            ? t('overTime.nothingYet', { everyBucket: t(`bucketEvery.${series.bucket}`) })
            : series.crops.length === 0 && noMatch
              ? noMatch
              : t('overTime.noValue', { metric: t(`metrics.${metric}.inSentence`) })}
        </p>
      </ChartFrame>
    );
  }

  return (
    <ChartFrame id="chart-time" title={title} incomplete={incomplete} controls={modeSwitch} table={table} wide>
      {mode === 'panels' ? (
        <div className={styles.panels}>
          {series.crops.map((c, ci) => {
            const colour = colours.get(c.crop) ?? 'var(--fg)';
            const cropTarget = cropTargets[ci] ?? null;
            const batches = t('batches', { count: c.count, countText: f.count(c.count) });
            const name = cropName(c.crop, t);
            return (
              <div key={c.crop} className={styles.panel} data-crop={c.crop}>
                <h4 title={name}>
                  <span className={styles.swatch} style={{ background: colour }} aria-hidden="true" />
                  {name}
                  <span className={styles.panelMeta}>
                    {cropTarget !== null
                      ? t('overTime.panelMeta', { batches, target, value: value(cropTarget) })
                      : batches}
                  </span>
                </h4>
                <TimePanel
                  starts={series.starts}
                  ends={series.ends}
                  values={c.values}
                  counts={c.counts}
                  gaps={series.gaps}
                  compare={compared?.byCrop.get(c.crop)}
                  x={x}
                  y={ownAxes?.[ci] ?? yAxis}
                  xTicks={ticks}
                  colour={colour}
                  target={cropTarget}
                  tickLabel={tick}
                  bucketLabel={full}
                  valueLabel={value}
                  valueTick={(v) => formatTick(metric, v, f)}
                  onPick={(i) => pickBucket(i, c.crop)}
                  onRange={setRange}
                  label={t('overTime.panelLabel', {
                    crop: name,
                    metric: t(`metrics.${metric}.labelInSentence`),
                    bucket: bucketWord,
                  })}
                />
              </div>
            );
          })}
        </div>
      ) : (
        <>
          <ul className={styles.legend} aria-label={t('overTime.cropsInColour')}>
            {series.crops.map((c) => (
              <li key={c.crop}>
                <label>
                  <input
                    type="checkbox"
                    checked={shown.includes(c.crop)}
                    onChange={(e) => {
                      const next = e.target.checked ? [...shown, c.crop] : shown.filter((k) => k !== c.crop);
                      drill({ focus: next.length ? next.map(encodeURIComponent).join(',') : undefined });
                    }}
                  />
                  <span
                    className={styles.swatch}
                    style={{ background: shown.includes(c.crop) ? colours.get(c.crop) : 'var(--chart-faint)' }}
                    aria-hidden="true"
                  />
                  {t('overTime.legendEntry', { crop: cropName(c.crop, t), count: f.count(c.count) })}
                </label>
              </li>
            ))}
          </ul>
          <FitWidth height={300}>
            <LineChart
              data={series.starts.map((t, i) =>
                Object.fromEntries([
                  ['t', t],
                  ...series.crops.flatMap((c) => [
                    [c.crop, c.values[i]],
                    [`${c.crop}\u0000compared`, compared?.byCrop.get(c.crop)?.[i] ?? null],
                  ]),
                ]),
              )}
              margin={{ top: 8, right: 16, bottom: 4, left: 8 }}
              {...handlers}
              style={{ cursor: 'crosshair', userSelect: 'none' }}
            >
              {axes(300, false)}
              {series.crops.map((c, ci) =>
                shown.includes(c.crop) && cropTargets[ci] != null ? (
                  <ReferenceLine
                    key={`t-${c.crop}`}
                    y={cropTargets[ci]}
                    stroke={colours.get(c.crop)}
                    strokeDasharray="6 3"
                    ifOverflow="extendDomain"
                  />
                ) : null,
              )}
              {compared &&
                series.crops
                  .filter((c) => shown.includes(c.crop))
                  .map((c) => (
                    <Line
                      key={`${c.crop}-compared`}
                      dataKey={`${c.crop}\u0000compared`}
                      name={t('overTime.comparedLine', { crop: cropName(c.crop, t), period: compared.label })}
                      stroke={colours.get(c.crop)}
                      strokeOpacity={0.6}
                      strokeDasharray="3 2"
                      strokeWidth={1.2}
                      dot={false}
                      activeDot={false}
                      connectNulls={false}
                      isAnimationActive={false}
                    />
                  ))}
              {/* The faint crops first, so the chosen ones are drawn over them. */}
              {[...series.crops]
                .sort((a, b) => Number(shown.includes(a.crop)) - Number(shown.includes(b.crop)))
                .map((c) => {
                  const on = shown.includes(c.crop);
                  const colour = on ? (colours.get(c.crop) ?? 'var(--fg)') : 'var(--chart-faint)';
                  return (
                    <Line
                      key={c.crop}
                      dataKey={c.crop}
                      name={cropName(c.crop, t)}
                      stroke={colour}
                      strokeWidth={on ? 2 : 1}
                      dot={dot(c.values, colour)}
                      activeDot={on ? { r: 4 } : false}
                      connectNulls={false}
                      isAnimationActive={false}
                    />
                  );
                })}
            </LineChart>
          </FitWidth>
          <p className={styles.chartNote}>
            {compared
              ? t('overTime.focusNoteCompared', { target, period: compared.label })
              : t('overTime.focusNote', { target })}
            <span className="screen-only"> {t('overTime.focusHint', { aBucket })}</span>
          </p>
        </>
      )}
      {mode === 'panels' && (
        <p className={styles.chartNote}>
          {own
            ? compared
              ? t('overTime.panelsOwnNoteCompared', { period: compared.label })
              : t('overTime.panelsOwnNote')
            : compared
              ? t('overTime.panelsNoteCompared', { target, period: compared.label })
              : t('overTime.panelsNote', { target })}
          <span className="screen-only"> {t('overTime.panelsHint', { aBucket })}</span>
        </p>
      )}
    </ChartFrame>
  );
}

export default memo(OverTime);
