import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cropNameProblem,
  formatTargetsParam,
  parseTargetsParam,
  printable,
  storableTextProblem,
  validTargets,
} from '@/lib/contract';
import { TargetsSchema, ViewCreateSchema, ViewNameSchema } from '@/lib/contract/schemas';

/** What PostgreSQL keeps exactly as sent, decided here without lib/contract: no NUL, and UTF-8 that decodes back to the same text. */
const keepable = (text: string) => !text.includes('\0') && Buffer.from(text, 'utf8').toString('utf8') === text;
const hasControl = (text: string) =>
  [...text].some((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f));

describe('storable text', () => {
  // Any code unit at all (lone surrogates included), and the characters that matter often.
  const text = fc.string({
    unit: fc.oneof(
      fc.constantFrom('\0', '\t', '\n', '\u007f', '\u0085', '\ud800', '\udc00', '🌱', 'a', ' '),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    ),
    maxLength: 12,
  });

  it('refuses exactly what the database could not keep as sent, and names with control characters', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(storableTextProblem(t, { controls: true }) === null, JSON.stringify(t)).toBe(keepable(t));
        expect(storableTextProblem(t) === null, JSON.stringify(t)).toBe(keepable(t) && !hasControl(t));
      }),
      { numRuns: 5_000 },
    );
  });

  it('says which character, by its code point', () => {
    expect(storableTextProblem('Tom\u0000ato')).toBe('must not contain the NUL character (U+0000)');
    expect(storableTextProblem('\ud800')).toBe('must be valid Unicode: it holds a lone surrogate (U+D800)');
    expect(storableTextProblem('a\udc00b')).toBe('must be valid Unicode: it holds a lone surrogate (U+DC00)');
    expect(storableTextProblem('a\u001bb')).toBe(
      'must not contain control characters such as tabs or line breaks (it holds U+001B)',
    );
    expect(storableTextProblem('Tomato 🍅, Pak choi 小白菜')).toBeNull();
    expect(storableTextProblem('line\nbreak', { controls: true })).toBeNull();
  });

  it('printable writes control characters and lone surrogates as \\u escapes, and keeps everything else', () => {
    expect(printable('Tom\u0000ato\t🍅\ud800')).toBe('Tom\\u0000ato\\u0009🍅\\ud800');
    fc.assert(fc.property(text, (t) => storableTextProblem(printable(t)) === null));
  });

  it('the browser’s checks agree with the server’s schemas: a crop name the page keeps is one the server stores', () => {
    fc.assert(
      fc.property(text, (name) => {
        const targets = {
          general: { germination: 90, usable: null, cv: null },
          crops: { [name]: { germination: 80, usable: null, cv: null } },
        };
        const server = TargetsSchema.safeParse(targets).success;
        expect(cropNameProblem(name) === null).toBe(server);
        expect(validTargets(targets)).toBe(server);
        // A link leaves such a crop out (its target could not be saved), and keeps the rest.
        const back = parseTargetsParam(formatTargetsParam(targets));
        expect(back && Object.keys(back.crops)).toEqual(server ? [name] : []);
        expect(ViewNameSchema.safeParse(name).success).toBe(
          name.trim() !== '' && storableTextProblem(name.trim()) === null && name.trim().length <= 80,
        );
      }),
      { numRuns: 3_000 },
    );
  });

  it('a view’s query keeps percent-encoded text as given, and refuses raw NUL, lone surrogates and controls', () => {
    expect(ViewCreateSchema.safeParse({ name: 'x', query: 'q=%00%0A%F0%9F%8C%B1' }).success).toBe(true);
    for (const query of ['q=\u0000', 'q=\ud800', 'q=a\tb'])
      expect(ViewCreateSchema.safeParse({ name: 'x', query }).success).toBe(false);
  });
});
