'use client';

import { memo, useMemo, useState, type MouseEvent } from 'react';
import {
  CartesianGrid,
  ComposedChart,
  DefaultZIndexes,
  Line,
  ReferenceArea,
  ReferenceLine,
  XAxis,
  YAxis,
  ZIndexLayer,
  usePlotArea,
  useXAxisScale,
  useYAxisScale,
} from 'recharts';
import { dateTickLabels } from '@/lib/explorer/charts/date-ticks';
import type { Zone } from '@/lib/explorer/date-range';
import { formatTick, formatValue, METRIC_INFO, niceAxis, type Metric } from '@/lib/explorer/metrics';
import type { Row } from '@/lib/explorer/rows';
import { drawnLine, type ControlChart, type SpcPoint } from '@/lib/explorer/spc';
import { useSpeech } from '../shared/use-speech';
import styles from './control-charts.module.css';
import { FitWidth } from '../table/fit-width';
import { PRINT_WIDTH, usePrinting } from '../print/printing';

type Props = { chart: ControlChart; metric: Metric; zone: Zone; colour: string; onOpen: (row: Row) => void };

/** How near (px) the pointer must come to a batch for a hover or a click to find it. */
const REACH = 12;

/** A diamond (beyond the limits) and a ring (in a run) as path commands: thousands of marks in one element. */
const diamond = (x: number, y: number, r = 5) => `M${x},${y - r}L${x + r},${y}L${x},${y + r}L${x - r},${y}Z`;
const ring = (x: number, y: number, r = 3.5) => `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;

/** The rule a batch breaks, as its message key. */
export const ruleKey = (p: SpcPoint) =>
  p.beyond && p.run
    ? 'control.ruleBoth'
    : p.beyond
      ? 'control.ruleBeyond'
      : p.run
        ? 'control.ruleRun'
        : 'control.ruleNone';

/**
 * Every out-of-control batch as its own mark (the line between them may be thinned, see drawnLine), and the
 * pointer: the batch nearest to it within REACH px is named in a tooltip and opened by a click.
 */
function Marks({
  points,
  metric,
  zone,
  onOpen,
}: {
  points: readonly SpcPoint[];
  metric: Metric;
  zone: Zone;
  onOpen: Props['onOpen'];
}) {
  const x = useXAxisScale();
  const y = useYAxisScale();
  const area = usePlotArea();
  const [hover, setHover] = useState<number | null>(null);
  const { f, t } = useSpeech();
  const paths = useMemo(() => {
    let beyond = '',
      run = '';
    if (!x || !y) return { beyond, run };
    points.forEach((p, i) => {
      if (!p.beyond && !p.run) return;
      const px = x(i)!,
        py = y(p.value)!;
      if (p.beyond) beyond += diamond(px, py);
      else run += ring(px, py);
    });
    return { beyond, run };
  }, [points, x, y]);
  if (!x || !y || !area || points.length === 0) return null;

  const nearest = (e: MouseEvent<SVGRectElement>): number | null => {
    const box = e.currentTarget.ownerSVGElement!.getBoundingClientRect();
    const mx = e.clientX - box.left,
      my = e.clientY - box.top;
    const perPx = points.length > 1 ? (points.length - 1) / area.width : 1;
    const centre = Math.round((mx - area.x) * perPx);
    const span = Math.ceil(REACH * perPx) + 1;
    let best: number | null = null,
      bestD = REACH * REACH;
    for (let i = Math.max(0, centre - span); i <= Math.min(points.length - 1, centre + span); i++) {
      const dx = x(i)! - mx,
        dy = y(points[i]!.value)! - my;
      const d = dx * dx + dy * dy;
      if (d <= bestD) [best, bestD] = [i, d];
    }
    return best;
  };
  const shown = hover === null ? null : points[hover];
  const hx = hover === null ? 0 : x(hover)!,
    hy = shown ? y(shown.value)! : 0;
  const tipLeft = hx + 290 > area.x + area.width ? hx - 290 : hx + 12;
  // Above the line (recharts draws its layers in zIndex order, whatever the order of the children).
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.scatter}>
      <path d={paths.run} fill="var(--card)" stroke="var(--danger)" strokeWidth={1.5} />
      <path d={paths.beyond} fill="var(--danger)" stroke="var(--card)" strokeWidth={0.75} />
      <rect
        x={area.x}
        y={area.y}
        width={area.width}
        height={area.height}
        fill="transparent"
        style={{ cursor: hover === null ? 'default' : 'pointer' }}
        onMouseMove={(e) => {
          // Ours alone: the chart's own pointer tracking would redraw the line on every move (tens of ms).
          e.stopPropagation();
          setHover(nearest(e));
        }}
        onMouseLeave={() => setHover(null)}
        onClick={(e) => {
          const i = nearest(e);
          if (i !== null) onOpen(points[i]!.row);
        }}
      />
      {shown && (
        <>
          <circle cx={hx} cy={hy} r={7} fill="none" stroke="var(--fg)" strokeWidth={1.5} pointerEvents="none" />
          <foreignObject x={tipLeft} y={Math.max(area.y, hy - 70)} width={280} height={90} pointerEvents="none">
            <div className={styles.tip}>
              <strong>{shown.row.name}</strong>
              <br />
              {f.dateTime(shown.row.time, zone)} · {formatValue(metric, shown.value, f)}
              <br />
              {t(ruleKey(shown))}
            </div>
          </foreignObject>
        </>
      )}
    </ZIndexLayer>
  );
}

/** At most `most` batch indices evenly along the axis, the first among them. */
function indexTicks(n: number, most: number): number[] {
  if (n <= 1) return [0];
  const step = Math.max(1, Math.ceil((n - 1) / most));
  const ticks: number[] = [];
  for (let i = 0; i < n - step / 2; i += step) ticks.push(i);
  return ticks;
}

/**
 * The individuals chart of one crop: the batches in time order, centre, limits and the baseline span. A limit
 * past the axis (a UCL above 100 %, an LCL below 0) is drawn at its edge, labelled with its own value.
 */
function ControlChartPlot({ chart, metric, zone, colour, onOpen }: Props) {
  const { points, limits, baseline } = chart;
  const line = useMemo(() => drawnLine(points, 400), [points]);
  // Round ticks over the batches and the limits, within 0–100 % for rates (a limit beyond is drawn at the edge).
  const axis = useMemo(() => {
    let min = Infinity,
      max = -Infinity;
    for (const p of points) [min, max] = [Math.min(min, p.value), Math.max(max, p.value)];
    if (limits) [min, max] = [Math.min(min, limits.lcl), Math.max(max, limits.ucl)];
    const pad = Math.max((max - min) * 0.05, 0.5);
    return niceAxis(min - pad, max + pad, 5, 0, METRIC_INFO[metric].rate ? 100 : Infinity);
  }, [points, limits, metric]);
  const [lo, hi] = axis.domain;
  const { f, t } = useSpeech();
  const [measured, setWidth] = useState(0);
  const width = usePrinting() ? PRINT_WIDTH : measured;
  const limitLine = (v: number, key: 'ucl' | 'lcl') => {
    const message =
      key === 'ucl' ? (v > hi ? 'control.uclAbove' : 'control.ucl') : v < lo ? 'control.lclBelow' : 'control.lcl';
    return {
      y: Math.min(hi, Math.max(lo, v)),
      label: {
        value: t(message, { value: formatValue(metric, v, f) }),
        fill: 'var(--danger)',
        position: 'right' as const,
        fontSize: 12,
      },
    };
  };
  const lines = limits && {
    centre: t('control.centre', { value: formatValue(metric, limits.centre, f) }),
    ucl: limitLine(limits.ucl, 'ucl'),
    lcl: limitLine(limits.lcl, 'lcl'),
  };
  // Room on the right for the longest line label (`Centre 164.25 mm²`) at about 7 px a character.
  const right = lines
    ? Math.max(80, 12 + 7 * Math.max(lines.centre.length, lines.ucl.label.value.length, lines.lcl.label.value.length))
    : 20;
  // As many date ticks as fit their labels (`21. März 2025` is some 90 px): up to six, fewer on a narrow chart.
  const most = width > 0 ? Math.min(6, Math.max(2, Math.floor((width - 64 - right) / 110))) : 6;
  const ticks = useMemo(() => indexTicks(points.length, most), [points.length, most]);
  const tickLabels = useMemo(() => {
    const byTime = dateTickLabels(
      ticks.map((i) => points[i]?.row.time ?? 0),
      zone,
      f,
    );
    return new Map(ticks.map((i) => [i, byTime.get(points[i]?.row.time ?? 0) ?? '']));
  }, [ticks, points, zone, f]);
  return (
    <FitWidth height={300} onWidth={setWidth}>
      <ComposedChart data={line} margin={{ top: 12, right, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
        <XAxis
          dataKey="i"
          type="number"
          domain={[0, Math.max(points.length - 1, 1)]}
          ticks={ticks}
          interval={0}
          tickFormatter={(i: number) => tickLabels.get(i) ?? ''}
          stroke="var(--muted)"
          tick={{ fill: 'var(--fg)', fontSize: 12 }}
        />
        <YAxis
          domain={axis.domain}
          ticks={axis.ticks}
          interval={0}
          tickFormatter={(v: number) => formatTick(metric, v, f)}
          stroke="var(--muted)"
          tick={{ fill: 'var(--fg)', fontSize: 12 }}
          width={64}
          allowDataOverflow
        />
        {baseline.first >= 0 && (
          <ReferenceArea
            x1={baseline.first}
            x2={Math.max(baseline.last, baseline.first + 0.5)}
            fill="var(--muted)"
            fillOpacity={0.14}
            label={{ value: t('control.baseline'), fill: 'var(--fg)', position: 'insideTopLeft' }}
          />
        )}
        {limits && lines && (
          <>
            <ReferenceLine
              y={limits.centre}
              stroke="var(--fg)"
              label={{ value: lines.centre, fill: 'var(--fg)', position: 'right', fontSize: 12 }}
            />
            <ReferenceLine {...lines.ucl} stroke="var(--danger)" strokeDasharray="6 3" />
            <ReferenceLine {...lines.lcl} stroke="var(--danger)" strokeDasharray="6 3" />
          </>
        )}
        <Line
          dataKey="value"
          stroke={colour}
          strokeWidth={1.25}
          dot={line.length <= 120 ? { r: 2, fill: colour } : false}
          activeDot={false}
          isAnimationActive={false}
        />
        <Marks points={points} metric={metric} zone={zone} onOpen={onOpen} />
      </ComposedChart>
    </FitWidth>
  );
}

export default memo(ControlChartPlot);
