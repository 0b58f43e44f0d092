'use client';

import type { Measure } from '@/lib/print/column-widths';

/** A little over the canvas's width: print lays out text on its own grid, a hair wider at times. */
const SLACK = 1.04;

/**
 * A text's width (CSS px) in `font` (a CSS font shorthand) as the page's own fonts draw it, on a canvas; an
 * estimate from its length where there is no canvas.
 */
export function textMeasure(font: string, sizePt: number): Measure {
  const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!ctx) return (text) => text.length * sizePt * (4 / 3) * 0.6;
  ctx.font = font;
  const known = new Map<string, number>();
  return (text) => {
    let w = known.get(text);
    if (w === undefined) known.set(text, (w = ctx.measureText(text).width * SLACK + 1));
    return w;
  };
}
