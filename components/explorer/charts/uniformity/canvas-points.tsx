'use client';

import { useLayoutEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { Scatter } from '@/lib/explorer/uniformity/scatter';
import { glyphPaint, paintRuns, traceGlyph } from './glyphs';
import type { Scales } from './marks';

type Props = {
  scatter: Scatter;
  colours: ReadonlyMap<string, string>;
  s: Scales;
  /** Where the plot area starts within the chart (px). */
  left: number;
  top: number;
  onHover: (index: number | null, at: { left: number; top: number }) => void;
  onPick: (index: number) => void;
};

/** How near (px) the pointer must come to a point for a hover or a click to find it. */
const REACH = 6;
const CELL = 8;
/** The canvas reaches this far (px) past the plot area, so that a point on its edge (100 %) is drawn whole. */
const PAD = 6;

const DARK = '(prefers-color-scheme: dark)';
const onScheme = (change: () => void) => {
  const query = matchMedia(DARK);
  query.addEventListener('change', change);
  return () => query.removeEventListener('change', change);
};

/** The page's colour scheme, so the canvas redraws in the other theme's colours when it changes. */
const useScheme = () =>
  useSyncExternalStore(
    onScheme,
    () => matchMedia(DARK).matches,
    () => false,
  );

/**
 * Tens of thousands of points on a canvas (as SVG elements they cost seconds to lay out), each with its crop's
 * colour and its verdict's glyph. A grid of the points' pixels finds the one under the pointer. Colours are the
 * theme's (`var(--crop-3)` read from the page); paper gets PathPoints instead.
 */
export function CanvasPoints({ scatter, colours, s, left, top, onHover, onPick }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // The point the tooltip names: a click opens that one (a click's whole-pixel position can fall just out of reach).
  const hovered = useRef<number | null>(null);
  const dark = useScheme();
  // Each point's pixel, and the points per CELL × CELL px square of the plot (a flat index: a few ms at 50,000).
  const index = useMemo(() => {
    const xs = new Float32Array(scatter.points.length),
      ys = new Float32Array(scatter.points.length);
    const cols = Math.ceil(s.w / CELL) + 1,
      rows = Math.ceil(s.h / CELL) + 1;
    const counts = new Uint32Array(cols * rows + 1);
    const cellOf = (x: number, y: number) =>
      Math.min(rows - 1, Math.max(0, Math.floor(y / CELL))) * cols +
      Math.min(cols - 1, Math.max(0, Math.floor(x / CELL)));
    scatter.points.forEach((p, i) => {
      xs[i] = s.x(p.cv);
      ys[i] = s.y(p.germination);
      counts[cellOf(xs[i]!, ys[i]!) + 1]!++;
    });
    for (let c = 1; c < counts.length; c++) counts[c]! += counts[c - 1]!;
    const order = new Uint32Array(scatter.points.length);
    const fill = counts.slice(0, -1);
    for (let i = 0; i < xs.length; i++) order[fill[cellOf(xs[i]!, ys[i]!)]!++] = i;
    return { xs, ys, cols, rows, starts: counts, order, cellOf };
  }, [scatter, s]);

  useLayoutEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const ratio = window.devicePixelRatio || 1;
    el.width = Math.round((s.w + 2 * PAD) * ratio);
    el.height = Math.round((s.h + 2 * PAD) * ratio);
    const ctx = el.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, PAD * ratio, PAD * ratio);
    ctx.clearRect(-PAD, -PAD, s.w + 2 * PAD, s.h + 2 * PAD);
    const style = getComputedStyle(el);
    const resolved = new Map<string, string>();
    const css = (c: string) => {
      let v = resolved.get(c);
      if (v === undefined)
        resolved.set(c, (v = c.startsWith('var(') ? style.getPropertyValue(c.slice(4, -1)).trim() || '#888' : c));
      return v;
    };
    const card = css('var(--card)');
    // One path per colour and glyph in each run of points: a fill and a stroke each, not one per point.
    for (const { key, indices } of paintRuns(
      scatter.points,
      (p) => `${colours.get(p.crop) ?? 'var(--crop-none)'}|${p.verdict}`,
    )) {
      const [colour, verdict] = [key.slice(0, key.lastIndexOf('|')), Number(key.slice(key.lastIndexOf('|') + 1))];
      const paint = glyphPaint(verdict, css(colour), card);
      ctx.beginPath();
      for (const i of indices) traceGlyph(ctx, verdict, index.xs[i]!, index.ys[i]!);
      ctx.fillStyle = paint.fill;
      ctx.fill();
      ctx.lineWidth = paint.width;
      ctx.strokeStyle = paint.stroke;
      ctx.stroke();
    }
  }, [scatter, colours, s, index, dark]);

  const nearest = (x: number, y: number): number | null => {
    let best: number | null = null,
      bestD = REACH * REACH;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const cx = Math.floor(x / CELL) + dx,
          cy = Math.floor(y / CELL) + dy;
        if (cx < 0 || cy < 0 || cx >= index.cols || cy >= index.rows) continue;
        const c = cy * index.cols + cx;
        for (let k = index.starts[c]!; k < index.starts[c + 1]!; k++) {
          const i = index.order[k]!;
          const d = (index.xs[i]! - x) ** 2 + (index.ys[i]! - y) ** 2;
          if (d <= bestD) [best, bestD] = [i, d];
        }
      }
    }
    return best;
  };
  const at = (e: React.PointerEvent<HTMLCanvasElement> | React.MouseEvent<HTMLCanvasElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - box.left - PAD, y: e.clientY - box.top - PAD };
  };
  return (
    <canvas
      ref={canvas}
      data-marks="canvas"
      data-points={scatter.points.length}
      style={{
        position: 'absolute',
        left: left - PAD,
        top: top - PAD,
        width: s.w + 2 * PAD,
        height: s.h + 2 * PAD,
        cursor: 'crosshair',
      }}
      onPointerMove={(e) => {
        const { x, y } = at(e);
        const i = nearest(x, y);
        hovered.current = i;
        e.currentTarget.style.cursor = i === null ? 'crosshair' : 'pointer';
        onHover(i, { left: x + left, top: y + top });
      }}
      onPointerLeave={() => {
        hovered.current = null;
        onHover(null, { left: 0, top: 0 });
      }}
      onClick={(e) => {
        const { x, y } = at(e);
        const i = hovered.current ?? nearest(x, y);
        if (i !== null) onPick(i);
      }}
    />
  );
}
