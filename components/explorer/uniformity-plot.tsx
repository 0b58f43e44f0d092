'use client';

import { memo, useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { MIXED, type Density } from '@/lib/explorer/density';
import { cropName } from '@/lib/explorer/drill';
import { PRINT_WIDTH, usePrinting } from './printing';
import styles from './uniformity.module.css';
import { useSpeech } from './use-speech';

export type Mark = { kind: 'cell' | 'point'; index: number };

type Props = {
  density: Density;
  colours: ReadonlyMap<string, string>;
  /** The germination target and the CV threshold drawn as quadrant lines (null: none). */
  target: number | null;
  threshold: number | null;
  onMark: (mark: Mark) => void;
};

const HEIGHT = 360;
const M = { top: 14, right: 18, bottom: 44, left: 56 };

/** The width the plot has on the page (it follows the layout: two columns, one, a phone). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.round(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

function ticks(lo: number, hi: number, count: number): number[] {
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((s) => s * power).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}

type Scales = { x: (cv: number) => number; y: (g: number) => number; xMax: number; yMin: number; w: number; h: number };

/**
 * The marks: one SVG element each (at most ~2,000), drawn by hand rather than as recharts Scatter shapes, whose
 * per-point wrappers, animation and hit-testing cost several times more per mark and give no exact handle
 * (data-mark) to count or click. Memoised apart from the tooltip, so hovering redraws only the tooltip.
 */
const Marks = memo(function Marks({ density, colours, s }: { density: Density; colours: ReadonlyMap<string, string>; s: Scales }) {
  const most = Math.max(1, ...density.cells.map((c) => c.count));
  const shade = (count: number) => 0.25 + 0.6 * (Math.log(count) / Math.log(Math.max(most, 2)));
  return (
    <g>
      {density.cells.map((c, i) => {
        const x0 = s.x(c.c0), x1 = s.x(Math.min(c.c1, s.xMax)), y0 = s.y(c.g1), y1 = s.y(c.g0);
        return (
          <rect
            key={`c${i}`}
            data-mark="cell"
            data-index={i}
            x={x0 + 0.5}
            y={y0 + 0.5}
            width={Math.max(x1 - x0 - 1, 1)}
            height={Math.max(y1 - y0 - 1, 1)}
            fill={c.crop === MIXED ? 'var(--muted)' : (colours.get(c.crop) ?? 'var(--muted)')}
            fillOpacity={shade(c.count)}
            className={styles.mark}
          />
        );
      })}
      {density.points.map((p, i) => (
        <circle
          key={`p${i}`}
          data-mark="point"
          data-index={i}
          data-batch={p.row.id}
          cx={s.x(p.cv)}
          cy={s.y(p.germination)}
          r={3.5}
          fill={colours.get(p.crop) ?? 'var(--crop-none)'}
          stroke="var(--card)"
          strokeWidth={0.75}
          className={styles.mark}
        />
      ))}
    </g>
  );
});

function Tooltip({ density, mark }: { density: Density; mark: Mark }) {
  const { f, t } = useSpeech();
  const size = (v: number | null) => (v === null ? t('uniformity.tipSizeNone') : t('uniformity.tipSize', { value: f.number(v) }));
  if (mark.kind === 'point') {
    const p = density.points[mark.index]!;
    return (
      <>
        <strong>{p.row.name}</strong>
        <span>{cropName(p.crop, t)}</span>
        <span>{t('uniformity.tipGermination', { value: f.number(p.germination) })}</span>
        <span>{t('uniformity.tipCv', { value: f.number(p.cv) })}</span>
        <span>{size(p.size)}</span>
        <span className={styles.hint}>{t('uniformity.openBatch')}</span>
      </>
    );
  }
  const c = density.cells[mark.index]!;
  return (
    <>
      <strong>{t('uniformity.cellBatches', { count: c.count, countText: f.count(c.count) })}</strong>
      <span>{c.crop === MIXED ? t('mixedCrops') : t('uniformity.mostly', { crop: cropName(c.crop, t) })}</span>
      <span>{t('uniformity.tipGerminationRange', { lo: f.number(c.g0), hi: f.number(c.g1) })}</span>
      <span>{t('uniformity.tipCvRange', { lo: f.number(c.c0), hi: f.number(c.c1) })}</span>
      <span>{size(c.size)}</span>
      <span className={styles.hint}>{t('uniformity.showBatches')}</span>
    </>
  );
}

/** The plot: axes, density cells and points, the quadrant lines and their labels, a tooltip. */
export function UniformityPlot({ density, colours, target, threshold, onMark }: Props) {
  const { f, t } = useSpeech();
  const [ref, measured] = useWidth();
  // On paper at the print width: the page's width is not observed before a print.
  const width = usePrinting() ? PRINT_WIDTH : measured;
  const [hovered, setHover] = useState<(Mark & { left: number; top: number; of: Density }) | null>(null);
  // A hover belongs to the marks it was over: after a drill-down the same index is another mark, or none.
  const hover = hovered?.of === density ? hovered : null;
  const w = Math.max(width - M.left - M.right, 10), h = HEIGHT - M.top - M.bottom;
  const xMax = Math.max(density.cvMax, threshold !== null ? threshold * 1.1 : 0);
  const yMin = Math.max(0, Math.floor(Math.min(density.gMin ?? 90, target ?? 100) / 10) * 10 - (target !== null && target <= (density.gMin ?? 100) ? 5 : 0));
  // One object per size and domain: the memoised marks redraw only when these change.
  const s = useMemo<Scales>(() => ({ x: (cv) => (cv / xMax) * w, y: (g) => h - ((g - yMin) / (100 - yMin)) * h, xMax, yMin, w, h }), [w, h, xMax, yMin]);
  const markOf = (el: EventTarget): Mark | null => {
    const kind = (el as Element).getAttribute?.('data-mark');
    return kind === 'cell' || kind === 'point' ? { kind, index: Number((el as Element).getAttribute('data-index')) } : null;
  };
  const onMove = (e: PointerEvent<SVGGElement>) => {
    const mark = markOf(e.target);
    if (!mark) return setHover(null);
    const box = ref.current!.getBoundingClientRect();
    setHover({ ...mark, left: e.clientX - box.left, top: e.clientY - box.top, of: density });
  };
  const xs = ticks(0, xMax, Math.max(2, Math.floor(w / 70)));
  const ys = ticks(yMin, 100, 6);
  const quadrants = target !== null && threshold !== null;
  return (
    <div ref={ref} className={styles.plot}>
      {width > 0 && (
        <svg width={width} height={HEIGHT} role="img" aria-label={t('uniformity.plotLabel')}>
          <g transform={`translate(${M.left},${M.top})`}>
            {ys.map((v) => (
              <g key={`y${v}`} className={styles.grid}>
                <line x1={0} x2={w} y1={s.y(v)} y2={s.y(v)} />
                <text x={-6} y={s.y(v)} dy="0.32em" textAnchor="end">{f.number(v)}</text>
              </g>
            ))}
            {xs.map((v) => (
              <g key={`x${v}`} className={styles.grid}>
                <line x1={s.x(v)} x2={s.x(v)} y1={0} y2={h} />
                <text x={s.x(v)} y={h + 16} textAnchor="middle">{f.number(v)}</text>
              </g>
            ))}
            <text className={styles.axisTitle} x={w / 2} y={h + 36} textAnchor="middle">{t('uniformity.xTitle')}</text>
            <text className={styles.axisTitle} transform={`translate(${-42},${h / 2}) rotate(-90)`} textAnchor="middle">{t('uniformity.yTitle')}</text>
            {quadrants && (
              <g className={styles.quadrant} aria-hidden="true">
                <text x={6} y={14}>{t('uniformity.evenOnTarget')}</text>
                <text x={w - 6} y={14} textAnchor="end">{t('uniformity.unevenOnTarget')}</text>
                <text x={6} y={h - 8}>{t('uniformity.evenBelow')}</text>
                <text x={w - 6} y={h - 8} textAnchor="end">{t('uniformity.unevenBelow')}</text>
              </g>
            )}
            <g onPointerMove={onMove} onPointerLeave={() => setHover(null)} onClick={(e) => { const m = markOf(e.target); if (m) onMark(m); }}>
              <Marks density={density} colours={colours} s={s} />
            </g>
            {target !== null && (
              <g className={styles.refLine} data-line="target">
                <line x1={0} x2={w} y1={s.y(target)} y2={s.y(target)} />
                <text x={w - 6} y={s.y(target) - 5} textAnchor="end">{t('uniformity.targetLine', { value: f.number(target) })}</text>
              </g>
            )}
            {threshold !== null && (
              <g className={styles.refLine} data-line="cv">
                <line x1={s.x(threshold)} x2={s.x(threshold)} y1={0} y2={h} />
                <text x={s.x(threshold) + 5} y={30}>{t('uniformity.thresholdLine', { value: f.number(threshold) })}</text>
              </g>
            )}
          </g>
        </svg>
      )}
      {hover && (
        <div className={styles.tooltip} style={{ left: Math.min(hover.left + 12, width - 220), top: hover.top + 12 }} role="presentation">
          <Tooltip density={density} mark={hover} />
        </div>
      )}
    </div>
  );
}
