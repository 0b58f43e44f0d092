'use client';

import { useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import { targetFor, type Targets } from '@/lib/contract';
import { POINT_LIMIT, SVG_POINTS, type Scatter } from '@/lib/explorer/uniformity/scatter';
import { PRINT_WIDTH, usePrinting } from '../../print/printing';
import { useSpeech } from '../../shared/use-speech';
import { CanvasPoints } from './canvas-points';
import { Cells, PathPoints, SvgPoints, type Mark, type Scales } from './marks';
import { MarkTip } from './tooltip';
import styles from '../uniformity.module.css';

type Props = {
  scatter: Scatter;
  colours: ReadonlyMap<string, string>;
  targets: Targets;
  /** With one crop shown, or several judged by the same pair: that germination target and CV threshold, drawn as quadrant lines (null: none set). */
  lines: { target: number | null; threshold: number | null } | null;
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

/**
 * The plot: axes, the marks (SVG points, a canvas of points, or equal cells; paths on paper), with one crop
 * shown its target and threshold as quadrant lines, and a tooltip naming the mark under the pointer.
 */
export function UniformityPlot({ scatter, colours, targets, lines, onMark }: Props) {
  const { f, t } = useSpeech();
  const [ref, measured] = useWidth();
  const printing = usePrinting();
  // On paper at the print width: the page's width is not observed before a print.
  const width = printing ? PRINT_WIDTH : measured;
  const [hovered, setHover] = useState<(Mark & { left: number; top: number; of: Scatter }) | null>(null);
  // A hover belongs to the marks it was over: after a drill-down the same index is another mark, or none.
  const hover = hovered?.of === scatter ? hovered : null;
  const target = lines?.target ?? null,
    threshold = lines?.threshold ?? null;
  const w = Math.max(width - M.left - M.right, 10),
    h = HEIGHT - M.top - M.bottom;
  const xMax = Math.max(scatter.cvMax, threshold !== null ? threshold * 1.1 : 0);
  const gMin = scatter.gMin ?? 90;
  const yMin = Math.max(
    0,
    Math.floor(Math.min(gMin, target ?? 100) / 10) * 10 - (target !== null && target <= gMin ? 5 : 0),
  );
  // One object per size and domain: the memoised marks redraw only when these change.
  const s = useMemo<Scales>(
    () => ({ x: (cv) => (cv / xMax) * w, y: (g) => h - ((g - yMin) / (100 - yMin)) * h, xMax, yMin, w, h }),
    [w, h, xMax, yMin],
  );
  const markOf = (el: EventTarget): Mark | null => {
    const kind = (el as Element).getAttribute?.('data-mark');
    return kind === 'cell' || kind === 'point'
      ? { kind, index: Number((el as Element).getAttribute('data-index')) }
      : null;
  };
  const onMove = (e: PointerEvent<SVGGElement>) => {
    const mark = markOf(e.target);
    if (!mark) return setHover(null);
    const box = ref.current!.getBoundingClientRect();
    setHover({ ...mark, left: e.clientX - box.left, top: e.clientY - box.top, of: scatter });
  };
  const xs = ticks(0, xMax, Math.max(2, Math.floor(w / 70)));
  const ys = ticks(yMin, 100, 6);
  const quadrants = target !== null && threshold !== null;
  const onCanvas =
    scatter.kind === 'points' && scatter.points.length > SVG_POINTS && scatter.points.length <= POINT_LIMIT;
  const marks =
    scatter.kind === 'cells' ? (
      <Cells scatter={scatter} colours={colours} s={s} />
    ) : !onCanvas ? (
      <SvgPoints scatter={scatter} colours={colours} s={s} />
    ) : printing ? (
      <PathPoints scatter={scatter} colours={colours} s={s} />
    ) : null;
  // The quadrant words and the target and threshold lines, above the marks: on a canvas, in an SVG of their own over it.
  const over = (
    <>
      {quadrants && (
        <g className={styles.quadrant} aria-hidden="true">
          <text x={6} y={14}>
            {t('uniformity.evenOnTarget')}
          </text>
          <text x={w - 6} y={14} textAnchor="end">
            {t('uniformity.unevenOnTarget')}
          </text>
          <text x={6} y={h - 8}>
            {t('uniformity.evenBelow')}
          </text>
          <text x={w - 6} y={h - 8} textAnchor="end">
            {t('uniformity.unevenBelow')}
          </text>
        </g>
      )}
      {target !== null && (
        <g className={styles.refLine} data-line="target">
          <line x1={0} x2={w} y1={s.y(target)} y2={s.y(target)} />
          <text x={w - 6} y={s.y(target) - 5} textAnchor="end">
            {t('uniformity.targetLine', { value: f.percentUpTo(target) })}
          </text>
        </g>
      )}
      {threshold !== null && (
        <g className={styles.refLine} data-line="cv">
          <line x1={s.x(threshold)} x2={s.x(threshold)} y1={0} y2={h} />
          <text x={s.x(threshold) + 5} y={30}>
            {t('uniformity.thresholdLine', { value: f.percentUpTo(threshold) })}
          </text>
        </g>
      )}
    </>
  );
  const canvas = width > 0 && onCanvas && !printing;
  return (
    <div ref={ref} className={styles.plot}>
      {width > 0 && (
        <svg width={width} height={HEIGHT} role="img" aria-label={t('uniformity.plotLabel')}>
          <g transform={`translate(${M.left},${M.top})`}>
            {ys.map((v) => (
              <g key={`y${v}`} className={styles.grid}>
                <line x1={0} x2={w} y1={s.y(v)} y2={s.y(v)} />
                <text x={-6} y={s.y(v)} dy="0.32em" textAnchor="end">
                  {f.percentUpTo(v)}
                </text>
              </g>
            ))}
            {xs.map((v) => (
              <g key={`x${v}`} className={styles.grid}>
                <line x1={s.x(v)} x2={s.x(v)} y1={0} y2={h} />
                <text x={s.x(v)} y={h + 16} textAnchor="middle">
                  {f.percentUpTo(v)}
                </text>
              </g>
            ))}
            <text className={styles.axisTitle} x={w / 2} y={h + 36} textAnchor="middle">
              {t('uniformity.xTitle')}
            </text>
            <text className={styles.axisTitle} transform={`translate(${-46},${h / 2}) rotate(-90)`} textAnchor="middle">
              {t('uniformity.yTitle')}
            </text>
            {marks && (
              <g
                onPointerMove={onMove}
                onPointerLeave={() => setHover(null)}
                onClick={(e) => {
                  const m = markOf(e.target);
                  if (m) onMark(m);
                }}
              >
                {marks}
              </g>
            )}
            {!canvas && over}
          </g>
        </svg>
      )}
      {canvas && (
        <>
          <CanvasPoints
            scatter={scatter}
            colours={colours}
            s={s}
            left={M.left}
            top={M.top}
            onHover={(index, at) => setHover(index === null ? null : { kind: 'point', index, ...at, of: scatter })}
            onPick={(index) => onMark({ kind: 'point', index })}
          />
          <svg className={styles.overlay} width={width} height={HEIGHT} aria-hidden="true">
            <g transform={`translate(${M.left},${M.top})`}>{over}</g>
          </svg>
        </>
      )}
      {hover && (
        <div
          className={styles.tooltip}
          style={{ left: Math.min(hover.left + 12, width - 240), top: hover.top + 12 }}
          role="presentation"
        >
          <MarkTip scatter={scatter} mark={hover} targets={targets} />
        </div>
      )}
    </div>
  );
}

/** A batch's own target and threshold (its crop's, else the general ones). */
export const ownTargets = (targets: Targets, crop: string | null) => ({
  target: targetFor(targets, crop, 'germination'),
  threshold: targetFor(targets, crop, 'cv'),
});
