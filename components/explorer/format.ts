import type { Zone } from '@/lib/explorer/date-range';

const number1 = new Intl.NumberFormat('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const integer = new Intl.NumberFormat('en');

export const DASH = '—';
export const fmtCount = (n: number) => integer.format(n);
/** `1 batch`, `2,345 batches`. */
export const fmtBatches = (n: number) => `${integer.format(n)} ${n === 1 ? 'batch' : 'batches'}`;
export const fmtPercent = (v: number | string | null) => (v === null ? DASH : `${number1.format(Number(v))}%`);
export const fmtArea = (v: string | null) => (v === null ? DASH : `${number1.format(Number(v))} mm²`);
export const fmtDecimal = (v: string | null) => (v === null ? DASH : number1.format(Number(v)));
export const fmtInt = (v: number | null) => (v === null ? DASH : integer.format(v));
export const fmtText = (v: string | null) => (v === null || v === '' ? DASH : v);

const dateFormats = new Map<Zone, Intl.DateTimeFormat>();
export function fmtDate(ms: number, zone: Zone): string {
  let f = dateFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: zone });
    dateFormats.set(zone, f);
  }
  return f.format(ms) + (zone === 'UTC' ? ' UTC' : '');
}

export { safeHttpUrl } from '@/lib/safe-url';
