import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_TARGETS,
  formatTargetsParam,
  parseTargetsParam,
  sameTargets,
  targetFor,
  type Targets,
} from '@/lib/contract';
import { TargetSaveSchema, TargetsSchema } from '@/lib/contract/schemas';
import { legalMinimum, withLegalMinimums } from '@/lib/explorer/legal-minimums';

const set = (
  crops: Targets['crops'],
  general: Targets['general'] = { germination: 90, usable: null, cv: null },
): Targets => ({ general, crops });

describe('targets per crop', () => {
  it('judges a crop by its own target, an empty one by the general target, no crop by the general target', () => {
    const t = set(
      { Lettuce: { germination: 80, usable: null, cv: null }, Petunia: { germination: null, usable: 70, cv: null } },
      { germination: 90, usable: 85, cv: null },
    );
    expect(targetFor(t, 'Lettuce', 'germination')).toBe(80);
    expect(targetFor(t, 'Lettuce', 'usable')).toBe(85);
    expect(targetFor(t, 'Petunia', 'germination')).toBe(90);
    expect(targetFor(t, 'Petunia', 'usable')).toBe(70);
    expect(targetFor(t, null, 'germination')).toBe(90);
    expect(targetFor(DEFAULT_TARGETS, 'Tomato', 'usable')).toBeNull();
  });

  it('refuses what is not a percentage, naming the field', () => {
    const issue = (value: unknown) => TargetSaveSchema.safeParse(value).error?.issues[0];
    expect(issue({ targets: set({ Lettuce: { germination: 101, usable: null, cv: null } }) })).toMatchObject({
      path: ['targets', 'crops', 'Lettuce', 'germination'],
    });
    expect(issue({ targets: set({}, { germination: 90.123, usable: null, cv: null }) })?.message).toBe(
      'must have at most two decimals',
    );
    expect(issue({ targets: { general: { germination: 90 }, crops: {}, extra: 1 } })?.code).toBe('unrecognized_keys');
    expect(issue({ targets: set({ ' ': { germination: 80, usable: null, cv: null } }) })?.message).toBe(
      'a crop name must not be empty',
    );
    expect(
      issue({ targets: set({}, { germination: '90' as unknown as number, usable: null, cv: null }) })?.path,
    ).toEqual(['targets', 'general', 'germination']);
  });

  it('travel in a URL and come back the same, whatever the crop names', () => {
    const name = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() === s && s.length > 0);
    const pct = fc.option(
      fc.integer({ min: 0, max: 10_000 }).map((n) => n / 100),
      { nil: null },
    );
    fc.assert(
      fc.property(
        fc.dictionary(name, fc.record({ germination: pct, usable: pct, cv: pct }), { maxKeys: 8 }),
        pct,
        pct,
        pct,
        (crops, g, u, cv) => {
          const t = TargetsSchema.parse({ general: { germination: g, usable: u, cv }, crops });
          const back = parseTargetsParam(formatTargetsParam(t));
          expect(back).not.toBeNull();
          expect(sameTargets(back!, t)).toBe(true);
        },
      ),
    );
  });

  it('a CV threshold per crop falls back to the general one, like the rates', () => {
    const t = set(
      { Lettuce: { germination: null, usable: null, cv: 12 }, Petunia: { germination: 80, usable: null, cv: null } },
      { germination: 90, usable: null, cv: 20 },
    );
    expect([targetFor(t, 'Lettuce', 'cv'), targetFor(t, 'Petunia', 'cv'), targetFor(t, null, 'cv')]).toEqual([
      12, 20, 20,
    ]);
    expect(targetFor(DEFAULT_TARGETS, 'Lettuce', 'cv')).toBeNull();
    // A crop that sets only a CV threshold is kept (it sets something of its own).
    expect(parseTargetsParam(formatTargetsParam(t))?.crops.Lettuce).toEqual({
      germination: null,
      usable: null,
      cv: 12,
    });
  });

  it('settings and links from before the CV threshold still read, with none; links without one are written as before', () => {
    const old = TargetsSchema.parse({
      general: { germination: 90, usable: 85 },
      crops: { Lettuce: { germination: 80, usable: null } },
    });
    expect(old).toEqual({
      general: { germination: 90, usable: 85, cv: null },
      crops: { Lettuce: { germination: 80, usable: null, cv: null } },
    });
    expect(parseTargetsParam('*:90/85;Lettuce:80/')).toEqual(old);
    expect(formatTargetsParam(old)).toBe('*:90/85;Lettuce:80/');
    const withCv = { ...old, general: { ...old.general, cv: 15 } };
    expect(formatTargetsParam(withCv)).toBe('*:90/85/15;Lettuce:80/');
    expect(parseTargetsParam('*:90/85/15;Lettuce:80//')).toEqual(withCv);
    expect(sameTargets(old, withCv)).toBe(false);
    expect(TargetsSchema.safeParse({ general: { germination: 90, usable: null, cv: 101 } }).success).toBe(false);
  });

  it('a mangled targets parameter is no target set', () => {
    for (const text of ['', 'Lettuce:80/', '*:900/', '*:90/;%E0%A4%A:1/', '*:90', '*:90/;x', '*:90/1/2/3', '*:90//.'])
      expect(parseTargetsParam(text)).toBeNull();
  });
});

describe('legal minimum germination (7 CFR 201.31)', () => {
  it('finds the standard in the organisation’s crop names, the longest match first', () => {
    expect(legalMinimum('Lettuce')).toEqual({ name: 'lettuce', germination: 80 });
    expect(legalMinimum('Bell pepper')?.germination).toBe(55);
    expect(legalMinimum('Cucumber Mini Munch')?.germination).toBe(80);
    expect(legalMinimum('New Zealand spinach')?.germination).toBe(40);
    expect(legalMinimum('Spinach')?.germination).toBe(60);
    expect(legalMinimum('Petunia')).toBeNull();
    expect(legalMinimum('Peanut')).toBeNull();
  });

  it('sets only the listed crops’ germination targets and says which crops have none', () => {
    const before = set({ Lettuce: { germination: 92, usable: 88, cv: 14 } }, { germination: 90, usable: null, cv: 25 });
    const { targets, applied, unlisted } = withLegalMinimums(before, ['Lettuce', 'Petunia', 'Tomato']);
    // The CV thresholds (the crop's own and the general one) are no business of a germination standard.
    expect(targets.crops).toEqual({
      Lettuce: { germination: 80, usable: 88, cv: 14 },
      Tomato: { germination: 75, usable: null, cv: null },
    });
    expect(targets.general).toEqual(before.general);
    expect([applied, unlisted]).toEqual([['Lettuce', 'Tomato'], ['Petunia']]);
  });
});
