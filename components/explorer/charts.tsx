'use client';

import { memo, useEffect, useMemo, useState } from 'react';
import {
  Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, LineChart, ReferenceArea, ReferenceLine, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis,
} from 'recharts';
import { targetFor } from '@/lib/contract';
import { germinationHistogram, germinationOverTime, perCrop } from '@/lib/explorer/aggregate';
import type { Span } from '@/lib/explorer/missing';
import { cropLabel, cropOfKey } from '@/lib/explorer/rows';
import type { AnalysisInput } from './analysis';
import { IncompleteNote } from './incomplete-note';
import styles from './explorer.module.css';

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

type Props = { input: AnalysisInput };

const CHART_COUNT = 3;

/** A target mark across a crop's bar: a short horizontal stroke. */
function TargetTick(props: { cx?: number; cy?: number }) {
  if (props.cx === undefined || props.cy === undefined) return null;
  return <line x1={props.cx - 14} x2={props.cx + 14} y1={props.cy} y2={props.cy} stroke="var(--danger)" strokeWidth={2.5} />;
}

/**
 * The time axis: the loaded buckets and every missing span with a known end, so that what has not arrived
 * shows as a marked band even when it lies before or after everything loaded. A span open towards the past
 * or the future gets a band of a tenth of the axis at that edge.
 */
function timeDomain(points: readonly { t: number }[], missing: readonly Span[]) {
  const ends = [...points.map((p) => p.t), ...missing.flatMap((s) => [s.from, s.to]).filter(Number.isFinite)];
  if (ends.length === 0) return { domain: [0, 1] as [number, number], gaps: [] };
  let lo = Math.min(...ends);
  let hi = Math.max(...ends);
  const pad = Math.max((hi - lo) / 10, 86_400_000);
  if (missing.some((s) => s.from === -Infinity)) lo -= pad;
  if (missing.some((s) => s.to === Infinity)) hi += pad;
  const gaps = missing.map((s) => ({ x1: Math.max(s.from, lo), x2: Math.min(s.to, hi) })).filter((g) => g.x1 < g.x2);
  return { domain: [lo, hi] as [number, number], gaps };
}

/**
 * Germination over time, its distribution, and crops side by side; all aggregated to at most ~1,000 points,
 * each batch judged by its own crop's target. While batches are missing, each chart says so and the time
 * chart draws nothing across what has not arrived. The first time, the charts are drawn one per task (a
 * chart's first drawing is the costliest), so the page stays responsive in between.
 */
function Charts({ input }: Props) {
  const { rows, zone, targets, completeness, drill } = input;
  const onCrop = (crop: string) => drill({ crop });
  const [drawn, setDrawn] = useState(1);
  useEffect(() => {
    if (drawn >= CHART_COUNT) return;
    const timer = setTimeout(() => setDrawn((n) => n + 1), 0);
    return () => clearTimeout(timer);
  }, [drawn]);
  const { missing } = completeness;
  const series = useMemo(() => germinationOverTime(rows, zone, missing), [rows, zone, missing]);
  const histogram = useMemo(() => germinationHistogram(rows, targets), [rows, targets]);
  const crops = useMemo(() => perCrop(rows, targets), [rows, targets]);
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: '2-digit', timeZone: zone });
  const cropTargets = series.crops.map((crop) => targetFor(targets, cropOfKey(crop), 'germination'));
  const oneTarget = new Set(cropTargets).size === 1 ? cropTargets[0]! : undefined;
  const floor = Math.min(...series.points.flatMap((p) => series.crops.map((c) => p[c] ?? 100)), ...cropTargets.map((t) => t ?? 100));
  // A bucket in a span not fully loaded has no value: when that is every bucket, there is no line to draw.
  const drawable = series.points.some((p) => series.crops.some((c) => p[c] !== null));
  const { domain, gaps } = useMemo(() => timeDomain(series.points, missing), [series.points, missing]);
  const note = <IncompleteNote of={completeness} zone={zone} what="These charts" retryLabel="Retry" />;

  return (
    <section className={styles.chartsBox} aria-label="Charts">
      {note}
      <div className={styles.charts}>
        <figure className={styles.chart} aria-labelledby="chart-time">
          <figcaption id="chart-time">
            Germination rate over time ({series.bucket === 'day' ? 'daily' : `${series.bucket}ly`} mean per crop)
            {missing.length > 0 && <span className={styles.incompleteTag}> · Incomplete</span>}
          </figcaption>
          {drawable ? (
            <ResponsiveContainer width="100%" height={260}>
              <LineChart data={series.points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                <XAxis dataKey="t" type="number" scale="time" domain={domain} allowDataOverflow tickFormatter={(t: number) => day.format(t)} stroke="var(--muted)" />
                <YAxis domain={[Math.max(0, Math.floor(floor - 5)), 100]} unit="%" stroke="var(--muted)" />
                <Tooltip labelFormatter={(t) => day.format(Number(t))} formatter={(v) => `${Number(v).toFixed(1)}%`} />
                <Legend onClick={(e) => typeof e.dataKey === 'string' && onCrop(e.dataKey)} wrapperStyle={{ cursor: 'pointer' }} />
                {gaps.map((g) => (
                  <ReferenceArea key={g.x1} x1={g.x1} x2={g.x2} ifOverflow="hidden" fill="var(--muted)" fillOpacity={0.15} label={{ value: 'Not loaded', fill: 'var(--muted)', position: 'insideTop' }} />
                ))}
                {oneTarget !== undefined && oneTarget !== null && (
                  <ReferenceLine y={oneTarget} stroke="var(--danger)" strokeDasharray="6 3" label={{ value: `Target ${oneTarget}%`, fill: 'var(--danger)', position: 'insideTopRight' }} />
                )}
                {oneTarget === undefined &&
                  series.crops.map((crop, i) =>
                    cropTargets[i] === null ? null : (
                      <ReferenceLine key={`t-${crop}`} y={cropTargets[i]!} stroke={PALETTE[i % PALETTE.length]} strokeDasharray="6 3" />
                    ),
                  )}
                {series.crops.map((crop, i) => (
                  <Line
                    key={crop}
                    dataKey={crop}
                    name={`${cropLabel(crop)}${oneTarget === undefined && cropTargets[i] !== null ? ` (target ${cropTargets[i]}%)` : ''}`}
                    stroke={PALETTE[i % PALETTE.length]}
                    dot={series.points.length <= 60 ? { r: 2 } : false}
                    connectNulls={false}
                    isAnimationActive={false}
                    strokeWidth={1.5}
                  />
                ))}
              </LineChart>
            </ResponsiveContainer>
          ) : (
            <p className={styles.chartEmpty}>
              Nothing to draw yet: every {series.bucket} of the loaded batches lies in a span that has not fully arrived.
            </p>
          )}
        </figure>
        {drawn >= 2 && (
          <figure className={styles.chart} aria-labelledby="chart-dist">
            <figcaption id="chart-dist">
              Distribution of germination rates (below their crop’s target in red)
              {missing.length > 0 && <span className={styles.incompleteTag}> · Incomplete</span>}
            </figcaption>
            <ResponsiveContainer width="100%" height={260}>
              <BarChart data={histogram} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                <XAxis dataKey="from" type="number" domain={['dataMin', 100]} unit="%" stroke="var(--muted)" />
                <YAxis allowDecimals={false} stroke="var(--muted)" />
                <Tooltip labelFormatter={(from) => `${from}–${Number(from) + 2.5}%`} />
                {oneTarget !== undefined && oneTarget !== null && (
                  <ReferenceLine x={oneTarget} stroke="var(--danger)" strokeDasharray="6 3" label={{ value: 'Target', fill: 'var(--danger)', position: 'insideTopLeft' }} />
                )}
                <Bar dataKey="below" name="Under its crop’s target" stackId="n" fill="var(--danger)" isAnimationActive={false} />
                <Bar dataKey="meets" name="At or above target" stackId="n" fill="#2ca02c" isAnimationActive={false} />
                <Legend />
              </BarChart>
            </ResponsiveContainer>
          </figure>
        )}
        {drawn >= 3 && (
          <figure className={styles.chart} aria-labelledby="chart-crops">
            <figcaption id="chart-crops">
              Germination vs usable rate per crop, with each crop’s germination target (click a crop to filter)
              {missing.length > 0 && <span className={styles.incompleteTag}> · Incomplete</span>}
            </figcaption>
            <ResponsiveContainer width="100%" height={260}>
              <ComposedChart data={crops} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                <XAxis dataKey="crop" stroke="var(--muted)" interval={0} tick={{ fontSize: 11 }} tickFormatter={cropLabel} />
                <YAxis domain={[0, 100]} unit="%" stroke="var(--muted)" />
                <Tooltip formatter={(v) => `${Number(v).toFixed(1)}%`} labelFormatter={(c) => cropLabel(String(c))} />
                <Legend />
                <Bar dataKey="germination" name="Germination" fill="#1f77b4" cursor="pointer" isAnimationActive={false} onClick={(d) => onCrop(String((d as { crop?: string }).crop))} />
                <Bar dataKey="usable" name="Usable" fill="#ff7f0e" cursor="pointer" isAnimationActive={false} onClick={(d) => onCrop(String((d as { crop?: string }).crop))} />
                <Scatter dataKey="target" name="Germination target" fill="var(--danger)" shape={<TargetTick />} isAnimationActive={false} />
              </ComposedChart>
            </ResponsiveContainer>
          </figure>
        )}
      </div>
    </section>
  );
}

export default memo(Charts);
