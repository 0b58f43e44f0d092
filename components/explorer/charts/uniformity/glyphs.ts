import { BELOW, OVER } from '@/lib/explorer/uniformity/scatter';

/*
 * How a batch's verdict is drawn in its point, the same on SVG, a canvas and paper: round within its crop's CV
 * threshold, square over it; filled in its crop's colour at or above its crop's germination target, hollow
 * (a ring in that colour) below it.
 */
export const RADIUS = 3.5;
export const SQUARE = 3.2;

export const isHollow = (verdict: number) => (verdict & BELOW) !== 0;
export const isSquare = (verdict: number) => (verdict & OVER) !== 0;

/** The glyph's outline as SVG path commands at (x, y): many of them join into one path. */
export function glyphPath(verdict: number, x: number, y: number): string {
  if (isSquare(verdict)) return `M${x - SQUARE},${y - SQUARE}h${2 * SQUARE}v${2 * SQUARE}h${-2 * SQUARE}Z`;
  return `M${x - RADIUS},${y}a${RADIUS},${RADIUS} 0 1,0 ${2 * RADIUS},0a${RADIUS},${RADIUS} 0 1,0 ${-2 * RADIUS},0`;
}

/** Fill and outline of a glyph in `colour` on a card of `card`. */
export function glyphPaint(
  verdict: number,
  colour: string,
  card: string,
): { fill: string; stroke: string; width: number } {
  return isHollow(verdict) ? { fill: card, stroke: colour, width: 1.5 } : { fill: colour, stroke: card, width: 0.75 };
}

/** Draws the glyph on a canvas (the path is begun here, filled and stroked by the caller in its paint). */
export function traceGlyph(ctx: CanvasRenderingContext2D, verdict: number, x: number, y: number) {
  if (isSquare(verdict)) ctx.rect(x - SQUARE, y - SQUARE, 2 * SQUARE, 2 * SQUARE);
  else {
    ctx.moveTo(x + RADIUS, y);
    ctx.arc(x, y, RADIUS, 0, 2 * Math.PI);
  }
}

/** Points per run drawn together: small enough to interleave crops as the batches came, large enough to batch. */
const RUN = 512;

/**
 * The points as runs of the same colour and glyph, in the batches' order a few hundred at a time: drawing crop
 * by crop would put the last crop over all the others wherever they overlap.
 */
export function paintRuns<P>(points: readonly P[], key: (p: P) => string): { key: string; indices: number[] }[] {
  const runs: { key: string; indices: number[] }[] = [];
  for (let from = 0; from < points.length; from += RUN) {
    const groups = new Map<string, number[]>();
    for (let i = from; i < Math.min(points.length, from + RUN); i++) {
      const k = key(points[i]!);
      let list = groups.get(k);
      if (!list) groups.set(k, (list = []));
      list.push(i);
    }
    for (const [k, indices] of groups) runs.push({ key: k, indices });
  }
  return runs;
}
