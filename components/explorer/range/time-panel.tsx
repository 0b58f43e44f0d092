'use client';

import { memo, useRef, useState, type PointerEvent } from 'react';
import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import styles from '../view/explorer.module.css';

type Props = {
  starts: readonly number[];
  ends: readonly number[];
  values: readonly (number | null)[];
  counts: readonly number[];
  /** The comparison period's values per bucket, aligned with these buckets (drawn thin and dashed). */
  compare?: readonly (number | null)[];
  /** Buckets not wholly loaded: shaded "Not loaded". */
  gaps: readonly boolean[];
  x: readonly [number, number];
  y: { domain: [number, number]; ticks: number[] };
  xTicks: readonly number[];
  colour: string;
  target: number | null;
  tickLabel: (t: number) => string;
  /** A value-axis tick (`90%`, `120`). */
  valueTick: (v: number) => string;
  bucketLabel: (t: number) => string;
  valueLabel: (v: number) => string;
  /** A click on bucket i. */
  onPick: (i: number) => void;
  /** A drag from bucket lo to bucket hi (lo < hi). */
  onRange: (lo: number, hi: number) => void;
  label: string;
};

/** A value with no value on either side: a line cannot show it, so it is drawn as a dot. */
export function isolated(values: readonly (number | null)[], i: number): boolean {
  return values[i] !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null;
}

const W = 300,
  H = 150,
  L = 38,
  R = 6,
  T = 8,
  B = 20;
/** About the width of a character of the 10-unit tick text, and the least gap between two tick labels. */
const CHAR = 5.6,
  GAP = 4;

/** A tick label's anchor that keeps it inside `lo`–`hi` (a centred label at the panel's edge would be cut off). */
export function edgeAnchor(x: number, label: string, lo: number, hi: number): 'start' | 'middle' | 'end' {
  const half = (label.length * CHAR) / 2;
  return x - half < lo ? 'start' : x + half > hi ? 'end' : 'middle';
}

/**
 * The ticks whose labels fit side by side: longer names (`9. Juni` where English writes `9 Jun`) would run into
 * each other on a panel, so a tick too close to the last one kept is left out.
 */
function spaced(ticks: readonly number[], at: (t: number) => number, label: (t: number) => string): number[] {
  const kept: number[] = [];
  let lastX = -Infinity,
    lastHalf = 0;
  for (const t of ticks) {
    const half = (label(t).length * CHAR) / 2;
    if (at(t) - lastX >= lastHalf + half + GAP) {
      kept.push(t);
      lastX = at(t);
      lastHalf = half;
    }
  }
  return kept;
}

/**
 * One crop's small panel of the over-time chart, drawn as plain SVG: nine of them redraw in a few
 * milliseconds where a charting library's nine charts took hundreds. A line through consecutive buckets
 * (broken where a bucket has no batch), a dot where a point has no neighbour or buckets are few, the crop's
 * target dashed, bands where data is not loaded; pointer: hover reads a bucket, a click drills into it, a
 * drag sets the date range.
 */
function TimePanel(p: Props) {
  const t = useTranslations('analysis');
  const f = useFormats();
  const svg = useRef<SVGSVGElement>(null);
  const [hover, setHover] = useState<number | null>(null);
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null);
  const [x0, x1] = p.x;
  const [y0, y1] = p.y.domain;
  const sx = (t: number) => L + ((t - x0) / (x1 - x0 || 1)) * (W - L - R);
  const sy = (v: number) => T + (1 - (v - y0) / (y1 - y0 || 1)) * (H - T - B);
  const mid = (i: number) => sx(p.starts[i]!);
  const few = p.starts.length <= 60;

  const line = (values: readonly (number | null)[]) => {
    let d = '';
    values.forEach((v, i) => {
      if (v !== null) d += `${(values[i - 1] ?? null) === null ? 'M' : 'L'}${mid(i).toFixed(1)},${sy(v).toFixed(1)}`;
    });
    return d;
  };
  const path = line(p.values);
  const comparePath = p.compare ? line(p.compare) : '';
  const compareDots = p.compare ? p.compare.flatMap((_, i) => (isolated(p.compare!, i) ? [i] : [])) : [];
  const dots: number[] = [];
  p.values.forEach((v, i) => {
    if (v !== null && (few || isolated(p.values, i))) dots.push(i);
  });

  const bucketAt = (e: PointerEvent<SVGSVGElement>): number | null => {
    const rect = svg.current!.getBoundingClientRect();
    const x = ((e.clientX - rect.left) / rect.width) * W;
    for (let i = 0; i < p.starts.length; i++) if (x >= sx(p.starts[i]!) && x < sx(p.ends[i]!)) return i;
    return null;
  };
  const hv = hover === null ? null : (p.values[hover] ?? null);

  return (
    <div className={styles.timePanel}>
      <svg
        ref={svg}
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={p.label}
        style={{ cursor: 'crosshair', touchAction: 'none' }}
        onPointerDown={(e) => {
          const i = bucketAt(e);
          if (i === null) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          setDrag({ from: i, to: i });
        }}
        onPointerMove={(e) => {
          const i = bucketAt(e);
          setHover(i);
          if (drag && i !== null && i !== drag.to) setDrag({ ...drag, to: i });
        }}
        onPointerUp={() => {
          if (!drag) return;
          setDrag(null);
          if (drag.from === drag.to) p.onPick(drag.from);
          else p.onRange(Math.min(drag.from, drag.to), Math.max(drag.from, drag.to));
        }}
        onPointerCancel={() => setDrag(null)}
        onPointerLeave={() => setHover(null)}
      >
        <rect data-plot x={L} y={T} width={W - L - R} height={H - T - B} fill="transparent" />
        {p.y.ticks.map((v) => (
          <g key={v}>
            <line x1={L} x2={W - R} y1={sy(v)} y2={sy(v)} stroke="var(--border)" strokeDasharray="3 3" />
            <text x={L - 4} y={sy(v)} dy={3.5} textAnchor="end" fontSize={10} fill="var(--fg)">
              {p.valueTick(v)}
            </text>
          </g>
        ))}
        {spaced(p.xTicks, sx, p.tickLabel).map((t) => (
          <g key={t}>
            <line x1={sx(t)} x2={sx(t)} y1={H - B} y2={H - B + 3} stroke="var(--muted)" />
            <text
              x={sx(t)}
              y={H - 6}
              textAnchor={edgeAnchor(sx(t), p.tickLabel(t), 0, W)}
              fontSize={10}
              fill="var(--fg)"
            >
              {p.tickLabel(t)}
            </text>
          </g>
        ))}
        <line x1={L} x2={W - R} y1={H - B} y2={H - B} stroke="var(--muted)" />
        <line x1={L} x2={L} y1={T} y2={H - B} stroke="var(--muted)" />
        {p.gaps.map(
          (g, i) =>
            g && (
              <rect
                key={i}
                x={sx(p.starts[i]!)}
                y={T}
                width={sx(p.ends[i]!) - sx(p.starts[i]!)}
                height={H - T - B}
                fill="var(--muted)"
                fillOpacity={0.15}
                data-gap
              >
                <title>{t('notLoaded')}</title>
              </rect>
            ),
        )}
        {drag && drag.from !== drag.to && (
          <rect
            x={sx(p.starts[Math.min(drag.from, drag.to)]!)}
            y={T}
            width={sx(p.ends[Math.max(drag.from, drag.to)]!) - sx(p.starts[Math.min(drag.from, drag.to)]!)}
            height={H - T - B}
            fill="var(--accent)"
            fillOpacity={0.15}
            stroke="var(--accent)"
          />
        )}
        {p.target !== null && (
          <line
            x1={L}
            x2={W - R}
            y1={sy(p.target)}
            y2={sy(p.target)}
            stroke="var(--danger)"
            strokeDasharray="5 3"
            strokeWidth={1.2}
          />
        )}
        {comparePath && (
          <path
            data-compare
            d={comparePath}
            fill="none"
            stroke="var(--fg)"
            strokeOpacity={0.55}
            strokeWidth={1.2}
            strokeDasharray="3 2"
          />
        )}
        {compareDots.map((i) => (
          <circle
            key={`c${i}`}
            cx={mid(i)}
            cy={sy(p.compare![i]!)}
            r={2.5}
            fill="none"
            stroke="var(--fg)"
            strokeOpacity={0.55}
          />
        ))}
        <path data-line d={path} fill="none" stroke={p.colour} strokeWidth={1.8} strokeLinejoin="round" />
        {dots.map((i) => (
          <circle
            key={i}
            cx={mid(i)}
            cy={sy(p.values[i]!)}
            r={few ? 2.5 : 3.5}
            fill={p.colour}
            stroke="var(--card)"
            strokeWidth={1}
          />
        ))}
        {hover !== null && (
          <line x1={mid(hover)} x2={mid(hover)} y1={T} y2={H - B} stroke="var(--muted)" strokeWidth={1} />
        )}
        {hover !== null && hv !== null && (
          <circle cx={mid(hover)} cy={sy(hv)} r={4} fill={p.colour} stroke="var(--fg)" strokeWidth={1} />
        )}
      </svg>
      {hover !== null && (
        <p className={styles.timeReadout} aria-hidden="true">
          {hv !== null
            ? t('timePanel.readout', {
                bucket: p.bucketLabel(p.starts[hover]!),
                value: p.valueLabel(hv),
                batches: t('batches', { count: p.counts[hover]!, countText: f.count(p.counts[hover]!) }),
              })
            : t(p.gaps[hover] ? 'timePanel.readoutNotLoaded' : 'timePanel.readoutEmpty', {
                bucket: p.bucketLabel(p.starts[hover]!),
              })}
          {p.compare &&
            (p.compare[hover] == null
              ? t('timePanel.comparedNone')
              : t('timePanel.compared', { value: p.valueLabel(p.compare[hover]!) }))}
        </p>
      )}
    </div>
  );
}

export default memo(TimePanel);
