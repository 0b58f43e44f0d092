import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import formatCompiled, { type CompiledMessage } from 'icu-minify/format';
import { createTranslator } from 'use-intl/core';
import { formatsFor } from '@/lib/i18n/formats';
import { acceptedTags, LANGUAGES, readerLocale } from '@/lib/i18n/languages';
import { compiledMessages } from '@/lib/i18n/compiled';
import { MESSAGES } from '@/lib/i18n/messages';

const NBSP = /[\u00a0\u202f]/g;
const plain = (s: string) => s.replace(NBSP, ' ');

describe('the reader’s language and locale', () => {
  it('orders Accept-Language by weight, drops q=0, wildcards and nonsense', () => {
    expect(acceptedTags('nl-BE;q=0.5, de-de, fr;q=0, *;q=0.1, en-US;q=0.8, %%%')).toEqual(['de-DE', 'en-US', 'nl-BE']);
    expect(acceptedTags(null)).toEqual([]);
  });

  it('follows the browser: the first language we have, numbers in the browser’s own first locale', () => {
    expect(readerLocale('de-DE,de;q=0.9,en;q=0.8', undefined)).toEqual({ language: 'de', locale: 'de-DE' });
    expect(readerLocale('fr-FR, nl;q=0.7', undefined)).toEqual({ language: 'nl', locale: 'fr-FR' });
    expect(readerLocale('ja', undefined)).toEqual({ language: 'en', locale: 'ja' });
    expect(readerLocale(undefined, undefined)).toEqual({ language: 'en', locale: 'en' });
  });

  it('the switch wins; numbers then follow the browser’s tag of that language if it has one', () => {
    expect(readerLocale('en-US, de-AT;q=0.5', 'de')).toEqual({ language: 'de', locale: 'de-AT' });
    expect(readerLocale('en-US', 'nl')).toEqual({ language: 'nl', locale: 'nl' });
    expect(readerLocale('de-DE', 'xx')).toEqual({ language: 'de', locale: 'de-DE' });
  });
});

describe('formats', () => {
  const de = formatsFor('de-DE');
  const us = formatsFor('en-US');
  const gb = formatsFor('en-GB');
  const at = Date.UTC(2026, 10, 21, 13, 5);

  it('writes percentages, decimals and counts in the locale', () => {
    expect(plain(de.percent('93.40'))).toBe('93,4 %');
    expect(us.percent('93.40')).toBe('93.4%');
    expect(us.percent(null)).toBe('—');
    expect(de.count(12345)).toBe('12.345');
    expect(us.count(12345)).toBe('12,345');
    expect(de.decimal('7.25', 2)).toBe('7,25');
    expect(plain(de.area('12.34'))).toBe('12,3 mm²');
    expect(de.signed(-0.84)).toBe('−0,8');
    expect(us.signed(1.25)).toBe('+1.3');
    expect(plain(de.change(12))).toBe('+12 %');
  });

  it('writes dates and times in the locale and the chosen zone', () => {
    expect(de.date(at, 'Europe/Berlin')).toBe('21.11.2026');
    expect(de.dateTime(at, 'Europe/Berlin')).toBe('21.11.2026, 14:05');
    expect(plain(us.dateTime(at, 'UTC'))).toBe('Nov 21, 2026, 1:05 PM UTC');
    expect(gb.dateTime(at, 'UTC')).toBe('21 Nov 2026, 13:05 UTC');
  });

  it('writes spans of days and short dates for axes in the locale', () => {
    const from = Date.UTC(2025, 2, 17),
      to = Date.UTC(2025, 2, 23);
    expect(plain(gb.dateRange(from, to, 'UTC'))).toMatch(/^17\s?–\s?23 Mar 2025$/);
    expect(plain(de.dateRange(from, to, 'UTC'))).toBe('17.–23.03.2025');
    // The year written out: `Nov 21, 26` would read as the 26th.
    expect(gb.shortDate(at, 'UTC')).toBe('21 Nov 2026');
    expect(de.shortDate(at, 'UTC')).toBe('21. Nov. 2026');
    expect(us.shortDate(at, 'UTC')).toBe('Nov 21, 2026');
  });

  it('writes percents one way, whatever their digits', () => {
    expect(us.percentUpTo(72.5)).toBe('72.5%');
    expect(us.percentUpTo(70)).toBe('70%');
    expect(plain(de.percentUpTo(72.5))).toBe('72,5 %');
    expect(plain(us.percentRange(70, 72.5))).toMatch(/^70%?\s?–\s?72.5%$/);
    expect(plain(de.percentRange(70, 72.5))).toMatch(/^70\s?–\s?72,5 %$/);
  });

  it('reads numbers typed with the locale’s decimal mark or a point', () => {
    expect(de.parseNumber('93,5')).toBe(93.5);
    expect(de.parseNumber(' 93.5 ')).toBe(93.5);
    expect(us.parseNumber('93.5')).toBe(93.5);
    expect(us.parseNumber('93,5')).toBeNull();
    expect(de.parseNumber('9,3,5')).toBeNull();
    expect(de.parseNumber('')).toBeNull();
    expect(de.parseNumber('−2')).toBe(-2);
  });

  it('falls back to English for a malformed locale', () => {
    expect(formatsFor('not a locale!').count(1234)).toBe('1,234');
  });
});

describe('the message catalogue', () => {
  const dir = join(process.cwd(), 'messages');
  const files = readdirSync(join(dir, 'en'));
  const placeholders = (message: string) => [...message.matchAll(/\{(\w+)|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();
  const flat = (o: object, prefix = ''): [string, string][] =>
    Object.entries(o).flatMap(([k, v]) =>
      typeof v === 'string' ? [[prefix + k, v] as [string, string]] : flat(v as object, `${prefix}${k}.`),
    );

  it.each(files)('%s: every language has every English key, no other, with the same placeholders', (file) => {
    const read = (language: string) => flat(JSON.parse(readFileSync(join(dir, language, file), 'utf8')) as object);
    const english = read('en');
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      const theirs = new Map(read(language));
      expect([...theirs.keys()].sort(), `${language}/${file}`).toEqual(english.map(([k]) => k).sort());
      for (const [key, message] of english)
        expect(placeholders(theirs.get(key)!), `${language}/${file} ${key}`).toEqual(placeholders(message));
    }
  });

  it('every message parses and renders in every language', () => {
    for (const language of LANGUAGES) {
      const errors: string[] = [];
      const t = createTranslator({
        locale: language,
        messages: MESSAGES[language],
        onError: (e) => errors.push(e.message),
      });
      for (const [namespace, messages] of Object.entries(MESSAGES[language])) {
        for (const [key, message] of flat(messages as object)) {
          // Arguments get a number (plural and number arguments need one), tags a function.
          const values = Object.fromEntries(
            [...message.matchAll(/\{(\w+)|<(\w+)>/g)].map((m) =>
              m[1] ? [m[1], 2] : [m[2], (chunks: string) => chunks],
            ),
          );
          const out = t.markup(`${namespace}.${key}` as never, values as never);
          expect(out, `${language} ${namespace}.${key}`).not.toMatch(/[{}]/);
        }
      }
      expect(errors, language).toEqual([]);
    }
  });
});

describe('the compiled catalogue the pages format with (lib/i18n/compiled.ts)', () => {
  const flat = (o: object, prefix = ''): [string, unknown][] =>
    Object.entries(o).flatMap(([k, v]) =>
      typeof v === 'object' && v !== null && !Array.isArray(v)
        ? flat(v, `${prefix}${k}.`)
        : [[prefix + k, v] as [string, unknown]],
    );
  const formatters = {
    getDateTimeFormat: (...a: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...a),
    getNumberFormat: (...a: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...a),
    getPluralRules: (...a: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...a),
  };

  it('says exactly what the ICU parser says, for every message, language and plural form', () => {
    for (const language of LANGUAGES) {
      const t = createTranslator({ locale: language, messages: MESSAGES[language] });
      const compiled = new Map(flat(compiledMessages(language)));
      for (const [namespace, messages] of Object.entries(MESSAGES[language])) {
        for (const [key, message] of flat(messages as object) as [string, string][]) {
          for (const n of [0, 1, 2, 21]) {
            const values = Object.fromEntries(
              [...message.matchAll(/\{(\w+)|<(\w+)>/g)].map((m) =>
                m[1] ? [m[1], n] : [m[2], (chunks: string[]) => `[${chunks.join('')}]`],
              ),
            );
            const parsed = t.markup(`${namespace}.${key}` as never, values as never);
            const quick = formatCompiled(compiled.get(`${namespace}.${key}`) as CompiledMessage, language, values, {
              formatters,
            });
            expect([quick].flat().join(''), `${language} ${namespace}.${key} (${n})`).toBe(parsed);
          }
        }
      }
    }
  });

  it('leaves a message without arguments as its text (useMessages reads the export words as strings)', () => {
    expect(compiledMessages('de').export).toEqual(MESSAGES.de.export);
    expect(compiledMessages('nl').explorer.columns).toEqual(MESSAGES.nl.explorer.columns);
  });
});

describe('formats at the edges', () => {
  it('rounds a percentage tie as written, not as a division by 100 leaves it', () => {
    expect(formatsFor('en-GB').percent('1.15')).toBe(
      new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(1.15) + '%',
    );
    expect(formatsFor('en-GB').percent('4.35')).toBe('4.4%');
    expect(formatsFor('en-GB').percent('0.05')).toBe('0.1%');
  });

  it('reads the locale’s own digits in inputs', () => {
    const fa = formatsFor('fa-IR');
    expect(fa.parseNumber(fa.number(92.5))).toBe(92.5);
    expect(formatsFor('ar-EG').parseNumber('٩٢٫٥')).toBe(92.5);
  });
});
