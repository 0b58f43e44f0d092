import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGETS } from '@/lib/contract';
import { histogram } from '@/lib/explorer/aggregate';
import { CROP_COLOURS, cropColours } from '@/lib/explorer/crop-colors';
import { drillChips, formatBins, parseBins, parseDays, passesDrill, withBin } from '@/lib/explorer/drill';
import { inBin, niceAxis } from '@/lib/explorer/metrics';
import { filterRows, NO_CROP, toRow } from '@/lib/explorer/rows';
import { generateBatches } from '@/sandbox/data/generate';
import { speech } from '../helpers/speech';

const rows = generateBatches({
  seed: 'ground',
  count: 3_000,
  anchorMs: Date.UTC(2026, 5, 1),
  scanners: ['a@x.example', 'b@x.example'],
  reportBaseUrl: 'https://r.example',
}).map(toRow);

/** WCAG relative luminance and contrast of two #rrggbb colours. */
function contrast(a: string, b: string) {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

describe('crop colours', () => {
  const css = readFileSync('app/globals.css', 'utf8');
  // The dark theme is for screens only (`@media screen and (…)`): paper is light (print.css).
  const [light, dark] = css.split(/@media[^{]*\(prefers-color-scheme: dark\)/);
  const vars = (block: string) =>
    Object.fromEntries([...block!.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1]!, m[2]!.toLowerCase()]));

  it.each([
    ['light', vars(light!)],
    ['dark', vars(dark!)],
  ])('every crop colour reads as text (≥ 4.5:1) on the page and on cards in %s mode', (_, v) => {
    for (let i = 0; i < CROP_COLOURS; i++) {
      for (const bg of ['bg', 'card'])
        expect(contrast(v[`crop-${i}`]!, v[bg]!), `crop-${i} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(v['crop-none']!, v.card!)).toBeGreaterThanOrEqual(4.5);
  });

  it('gives a crop the same colour whatever other crops are in view, and nine crops nine colours', () => {
    const nine = ['Tomato', 'Lettuce', 'Bell pepper', 'Cucumber', 'Basil', 'Broccoli', 'Petunia', 'Spinach', 'Kale'];
    const all = cropColours(nine);
    expect(new Set(all.values()).size).toBe(9);
    expect(cropColours([...nine].reverse())).toEqual(all);
    expect(cropColours(['Tomato', NO_CROP]).get(NO_CROP)).toBe('var(--crop-none)');
    expect(cropColours(['Tomato']).get('Tomato')).toBe(all.get('Tomato'));
  });
});

describe('drill-downs', () => {
  it('reads and writes bins, one per metric, dropping what is not a bin', () => {
    expect(parseBins('germination:70:72.5;cv:10:15;nope:1:2;usable:5:1')).toEqual([
      { metric: 'germination', lo: 70, hi: 72.5 },
      { metric: 'cv', lo: 10, hi: 15 },
    ]);
    const next = withBin(parseBins('germination:70:72.5;cv:10:15'), { metric: 'germination', lo: 90, hi: 92.5 });
    expect(formatBins(next)).toBe('cv:10:15;germination:90:92.5');
    expect(parseDays('2026-05-04..2026-05-10')).toEqual({ from: '2026-05-04', to: '2026-05-10' });
    expect(parseDays('2026-05-10..2026-05-04')).toBeNull();
    expect(parseDays('2026-02-30')).toBeNull();
  });

  it('names each drill-down as its chip', () => {
    const labels = drillChips(
      { crop: NO_CROP, bins: 'germination:70:72.5', days: '2026-05-04..2026-05-10', scanner: '(none)' },
      speech(),
    ).map((c) => c.label);
    expect(labels[0]).toBe('Crop: No crop recorded');
    expect(labels[1]).toMatch(/^4\s*–\s*10 May 2026$/);
    expect(labels.slice(2)).toEqual(['Germination 70% – 72.5%', 'Scanner: No scanner recorded']);
  });

  it('names the chips in the reader’s language and notation, the URL unchanged', () => {
    const state = { crop: NO_CROP, bins: 'germination:70:72.5', days: '2026-05-04..2026-05-10', scanner: '(none)' };
    const de = drillChips(state, speech('de', 'de-DE')).map((c) => c.label.replace(/[\u00a0\u202f]/g, ' '));
    expect(de).toEqual([
      'Kultur: Keine Kultur erfasst',
      '04.–10.05.2026',
      'Keimrate 70–72,5 %',
      'Scanner: Kein Scanner erfasst',
    ]);
    expect(drillChips(state, speech('nl', 'nl-NL'))[2]!.label).toBe('Kieming 70% - 72,5%');
    expect(formatBins(parseBins(state.bins))).toBe('germination:70:72.5');
  });

  it('a histogram bin drills down to exactly the batches counted in it, for every metric', () => {
    for (const metric of ['germination', 'usable', 'cv', 'size'] as const) {
      const { bins } = histogram(rows, metric, DEFAULT_TARGETS);
      let total = 0;
      for (const b of bins) {
        const drilled = filterRows(rows, {
          q: '',
          targets: DEFAULT_TARGETS,
          drill: { bins: [{ metric, lo: b.lo, hi: b.hi }], within: null, scanner: undefined },
        });
        expect(drilled.length, `${metric} ${b.lo}`).toBe(b.count);
        total += drilled.length;
      }
      expect(total).toBe(
        rows.filter((r) => ({ germination: r.germination, usable: r.usable, cv: r.cv, size: r.size })[metric] !== null)
          .length,
      );
    }
  });

  it('a perfect tray sits in the top bin of a rate', () => {
    expect(inBin('germination', 100, 97.5, 100)).toBe(true);
    expect(inBin('germination', 97.5, 95, 97.5)).toBe(false);
    expect(inBin('cv', 15, 10, 15)).toBe(false);
  });

  it('filters by the days of a time bucket and by scanner', () => {
    const within = { from: Date.UTC(2026, 0, 5), to: Date.UTC(2026, 0, 12) };
    const want = rows.filter(
      (r) => r.time >= within.from && r.time < within.to && r.batch.scanned_by_email === 'a@x.example',
    );
    expect(want.length).toBeGreaterThan(0);
    expect(rows.filter((r) => passesDrill(r, { bins: [], within, scanner: 'a@x.example' }))).toEqual(want);
  });
});

describe('axes', () => {
  it('ticks on round steps, within the scale', () => {
    expect(niceAxis(81.3, 96.2, 5, 0, 100)).toEqual({ domain: [80, 100], ticks: [80, 85, 90, 95, 100] });
    expect(niceAxis(95, 99.5, 4, 0, 100).domain[1]).toBe(100);
    const { domain, ticks } = niceAxis(19.4, 28.7, 5, 0);
    expect(domain[0]).toBeLessThanOrEqual(19.4);
    expect(domain[1]).toBeGreaterThanOrEqual(28.7);
    const steps = new Set(ticks.slice(1).map((t, i) => Math.round((t - ticks[i]!) * 1e6)));
    expect(steps.size).toBe(1);
  });
});
