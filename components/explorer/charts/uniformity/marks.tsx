'use client';

import { memo, useId } from 'react';
import { MIXED, type Scatter } from '@/lib/explorer/uniformity/scatter';
import { glyphPaint, glyphPath, isHollow, isSquare, paintRuns, RADIUS, SQUARE } from './glyphs';
import styles from '../uniformity.module.css';

/** The plot's scales: CV to x and germination to y, in px within the plot area. */
/** A mark the pointer is on: a cell of the density grid or one batch's point, by its index. */
export type Mark = { kind: 'cell' | 'point'; index: number };

export type Scales = {
  x: (cv: number) => number;
  y: (g: number) => number;
  xMax: number;
  yMin: number;
  w: number;
  h: number;
};

type MarksProps = { scatter: Scatter; colours: ReadonlyMap<string, string>; s: Scales };

const colourOf = (colours: ReadonlyMap<string, string>, crop: string) => colours.get(crop) ?? 'var(--crop-none)';

/**
 * Every batch an SVG element of its own (up to SVG_POINTS): each names its batch and verdict (data-batch,
 * data-verdict), so a click, a hover or a test finds it exactly. Memoised apart from the tooltip.
 */
export const SvgPoints = memo(function SvgPoints({ scatter, colours, s }: MarksProps) {
  return (
    <g>
      {scatter.points.map((p, i) => {
        const paint = glyphPaint(p.verdict, colourOf(colours, p.crop), 'var(--card)');
        const common = {
          'data-mark': 'point',
          'data-index': i,
          'data-batch': p.row.id,
          'data-verdict': isHollow(p.verdict) ? 'below' : 'meets',
          'data-cv-verdict': isSquare(p.verdict) ? 'over' : 'within',
          fill: paint.fill,
          stroke: paint.stroke,
          strokeWidth: paint.width,
          className: styles.mark,
        };
        const x = s.x(p.cv),
          y = s.y(p.germination);
        return isSquare(p.verdict) ? (
          <rect key={i} {...common} x={x - SQUARE} y={y - SQUARE} width={2 * SQUARE} height={2 * SQUARE} />
        ) : (
          <circle key={i} {...common} cx={x} cy={y} r={RADIUS} />
        );
      })}
    </g>
  );
});

/** Many points for paper: a path per colour and glyph in each run of points (a canvas would print in the screen's theme). */
export const PathPoints = memo(function PathPoints({ scatter, colours, s }: MarksProps) {
  const { points } = scatter;
  return (
    <g data-marks="paths" data-points={points.length}>
      {paintRuns(points, (p) => `${colourOf(colours, p.crop)}|${p.verdict}`).map(({ indices }, k) => {
        const first = points[indices[0]!]!;
        const paint = glyphPaint(first.verdict, colourOf(colours, first.crop), 'var(--card)');
        const d = indices
          .map((i) => glyphPath(points[i]!.verdict, s.x(points[i]!.cv), s.y(points[i]!.germination)))
          .join('');
        return <path key={k} d={d} fill={paint.fill} stroke={paint.stroke} strokeWidth={paint.width} />;
      })}
    </g>
  );
});

/**
 * Equal cells, each in the colour of the crop with over half of its batches, darker with more batches; a cell
 * no crop holds half of is hatched grey (a solid grey is the colour of "No crop recorded").
 */
export const Cells = memo(function Cells({ scatter, colours, s }: MarksProps) {
  // An id fit for `url(#…)` (useId's own holds characters a fragment may not).
  const hatch = `hatch-${useId().replace(/[^\w-]/g, '')}`;
  const most = Math.max(2, ...scatter.cells.map((c) => c.count));
  const shade = (count: number) => 0.25 + 0.65 * (Math.log(count) / Math.log(most));
  return (
    <g>
      <defs>
        <pattern id={hatch} width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="5" height="5" fill="var(--muted)" fillOpacity="0.3" />
          <line x1="0" y1="0" x2="0" y2="5" stroke="var(--muted)" strokeWidth="3" />
        </pattern>
      </defs>
      {scatter.cells.map((c, i) => {
        const x0 = s.x(c.c0),
          x1 = s.x(c.c1),
          y0 = s.y(c.g1),
          y1 = s.y(c.g0);
        return (
          <rect
            key={i}
            data-mark="cell"
            data-index={i}
            data-mixed={c.crop === MIXED || undefined}
            x={x0 + 0.5}
            y={y0 + 0.5}
            width={Math.max(x1 - x0 - 1, 1)}
            height={Math.max(y1 - y0 - 1, 1)}
            fill={c.crop === MIXED ? `url(#${hatch})` : colourOf(colours, c.crop)}
            fillOpacity={shade(c.count)}
            className={styles.mark}
          />
        );
      })}
    </g>
  );
});
