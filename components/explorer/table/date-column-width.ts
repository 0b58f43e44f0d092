import type { Zone } from '@/lib/explorer/date-range';
import type { Formats } from '@/lib/i18n/formats';

const widths = new Map<string, number>();

/**
 * The width the Created column needs so that no date is ever cut: the widest date as formatted for `zone`
 * (every month, since their short names differ: "May" to "Sept", "Mai" to "Sept."; wide digits), measured in the table's font,
 * plus the cell's padding. Browser only.
 */
export function dateColumnWidth(zone: Zone, fallback: number, f: Formats): number {
  const root = getComputedStyle(document.documentElement);
  // The table's font: 0.9rem of the page's family (explorer.module.css, .table).
  const font = `${0.9 * parseFloat(root.fontSize)}px ${root.fontFamily}`;
  const key = `${f.locale}|${zone}|${font}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return fallback;
  ctx.font = font;
  let widest = 0;
  for (let month = 0; month < 12; month++) {
    for (const [day, hour] of [
      [28, 23],
      [30, 20],
      [8, 8],
    ] as const) {
      widest = Math.max(widest, ctx.measureText(f.dateTime(Date.UTC(2028, month, day, hour, 58), zone)).width);
    }
  }
  // 2 × 0.5rem of padding, and a few pixels for the sub-pixel rounding of table columns.
  const width = Math.ceil(widest + parseFloat(root.fontSize) + 6);
  widths.set(key, width);
  return width;
}
