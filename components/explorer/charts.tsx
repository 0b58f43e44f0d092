'use client';

import { memo, useEffect, useMemo, useState } from 'react';
import {
  Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis,
} from 'recharts';
import { germinationHistogram, germinationOverTime, perCrop } from '@/lib/explorer/aggregate';
import type { Zone } from '@/lib/explorer/date-range';
import type { Row } from '@/lib/explorer/rows';
import styles from './explorer.module.css';

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];

type Props = { rows: readonly Row[]; zone: Zone; target: number; onCrop: (crop: string) => void };

const CHART_COUNT = 3;

/**
 * Germination over time, its distribution, and crops side by side; all aggregated to at most ~1,000 points.
 * The first time, the charts are drawn one per task (a chart's first drawing is the costliest), so the page
 * stays responsive in between.
 */
function Charts({ rows, zone, target, onCrop }: Props) {
  const [drawn, setDrawn] = useState(1);
  useEffect(() => {
    if (drawn >= CHART_COUNT) return;
    const timer = setTimeout(() => setDrawn((n) => n + 1), 0);
    return () => clearTimeout(timer);
  }, [drawn]);
  const series = useMemo(() => germinationOverTime(rows, zone), [rows, zone]);
  const histogram = useMemo(() => germinationHistogram(rows), [rows]);
  const crops = useMemo(() => perCrop(rows), [rows]);
  const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: '2-digit', timeZone: zone });

  return (
    <div className={styles.charts}>
      <figure className={styles.chart} aria-labelledby="chart-time">
        <figcaption id="chart-time">Germination rate over time ({series.bucket}ly mean per crop)</figcaption>
        <ResponsiveContainer width="100%" height={260}>
          <LineChart data={series.points} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="t" type="number" scale="time" domain={['dataMin', 'dataMax']} tickFormatter={(t: number) => day.format(t)} stroke="var(--muted)" />
            <YAxis domain={[(min: number) => Math.max(0, Math.floor(Math.min(min, target) - 5)), 100]} unit="%" stroke="var(--muted)" />
            <Tooltip labelFormatter={(t) => day.format(Number(t))} formatter={(v) => `${Number(v).toFixed(1)}%`} />
            <Legend onClick={(e) => typeof e.value === 'string' && onCrop(e.value)} wrapperStyle={{ cursor: 'pointer' }} />
            <ReferenceLine y={target} stroke="var(--danger)" strokeDasharray="6 3" label={{ value: `Target ${target}%`, fill: 'var(--danger)', position: 'insideTopRight' }} />
            {series.crops.map((crop, i) => (
              <Line key={crop} dataKey={crop} stroke={PALETTE[i % PALETTE.length]} dot={false} connectNulls isAnimationActive={false} strokeWidth={1.5} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </figure>
      {drawn >= 2 && (
        <figure className={styles.chart} aria-labelledby="chart-dist">
          <figcaption id="chart-dist">Distribution of germination rates</figcaption>
          <ResponsiveContainer width="100%" height={260}>
            <BarChart data={histogram} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
              <XAxis dataKey="from" type="number" domain={['dataMin', 100]} unit="%" stroke="var(--muted)" />
              <YAxis allowDecimals={false} stroke="var(--muted)" />
              <Tooltip labelFormatter={(from) => `${from}–${Number(from) + 2.5}%`} />
              <ReferenceLine x={target} stroke="var(--danger)" strokeDasharray="6 3" label={{ value: 'Target', fill: 'var(--danger)', position: 'insideTopLeft' }} />
              <Bar dataKey="count" name="Batches" fill="#2ca02c" isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </figure>
      )}
      {drawn >= 3 && (
        <figure className={styles.chart} aria-labelledby="chart-crops">
          <figcaption id="chart-crops">Germination vs usable rate per crop (click a crop to filter)</figcaption>
          <ResponsiveContainer width="100%" height={260}>
            <BarChart data={crops} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
              <XAxis dataKey="crop" stroke="var(--muted)" interval={0} tick={{ fontSize: 11 }} />
              <YAxis domain={[0, 100]} unit="%" stroke="var(--muted)" />
              <Tooltip formatter={(v) => `${Number(v).toFixed(1)}%`} />
              <Legend />
              <ReferenceLine y={target} stroke="var(--danger)" strokeDasharray="6 3" />
              <Bar dataKey="germination" name="Germination" fill="#1f77b4" cursor="pointer" isAnimationActive={false} onClick={(d) => onCrop(String((d as { crop?: string }).crop))} />
              <Bar dataKey="usable" name="Usable" fill="#ff7f0e" cursor="pointer" isAnimationActive={false} onClick={(d) => onCrop(String((d as { crop?: string }).crop))} />
            </BarChart>
          </ResponsiveContainer>
        </figure>
      )}
    </div>
  );
}

export default memo(Charts);
