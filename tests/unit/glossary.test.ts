import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '@/lib/i18n/languages';

type Entry = { term: string; uses: string; forbidden: string[] };
type Glossary = { names: string[]; concepts: Record<string, { meaning: string } & Record<Language, Entry>> };

const dir = join(process.cwd(), 'messages');
const glossary = JSON.parse(readFileSync(join(dir, 'glossary.json'), 'utf8')) as Glossary;
const pattern = (source: string) => new RegExp(source, 'iu');

const flat = (o: object, prefix = ''): [string, string][] =>
  Object.entries(o).flatMap(([k, v]) =>
    typeof v === 'string' ? [[prefix + k, v] as [string, string]] : flat(v as object, `${prefix}${k}.`),
  );

/**
 * Every message of a language by `file/key`, read from disk (parts added later are checked too), as a reader
 * sees its words: placeholders, ICU argument heads, tags and proper names taken out.
 */
function messagesOf(language: Language): Map<string, string> {
  const words = (message: string) =>
    glossary.names
      .reduce((text, name) => text.replaceAll(name, ' '), message)
      .replace(/\{\w+\}/g, ' ')
      .replace(/\{\w+,\s*\w+,?/g, ' ')
      .replace(/<\/?\w+>/g, ' ');
  return new Map(
    readdirSync(join(dir, language))
      .filter((file) => file.endsWith('.json'))
      .flatMap((file) =>
        flat(JSON.parse(readFileSync(join(dir, language, file), 'utf8')) as object).map(
          ([key, message]) => [`${file}/${key}`, words(message)] as const,
        ),
      ),
  );
}

const MESSAGES = new Map(LANGUAGES.map((language) => [language, messagesOf(language)]));
const CONCEPTS = Object.entries(glossary.concepts);

describe('the glossary (messages/glossary.json)', () => {
  it('names each required concept in every language, each term a use of its concept', () => {
    const required = [
      'germinationRate',
      'usableSeedlings',
      'cv',
      'uniformity',
      'cvThreshold',
      'medianSeedlingSize',
      'target',
      'batch',
      'warnings',
      'crop',
      'scanner',
    ];
    expect(CONCEPTS.map(([name]) => name)).toEqual(expect.arrayContaining(required));
    for (const [name, concept] of CONCEPTS) {
      for (const language of LANGUAGES) {
        const entry = concept[language];
        expect(entry, `${name} ${language}`).toBeDefined();
        expect(entry.term, `${name} ${language}`).toMatch(pattern(entry.uses));
        expect(
          entry.forbidden.filter((f) => pattern(f).test(entry.term)),
          `${name} ${language}: its term is forbidden`,
        ).toEqual([]);
      }
    }
  });

  it.each(LANGUAGES)('%s: no message uses a forbidden variant of a concept', (language) => {
    const found = CONCEPTS.flatMap(([name, concept]) =>
      concept[language].forbidden.flatMap((variant) =>
        [...MESSAGES.get(language)!]
          .filter(([, text]) => pattern(variant).test(text))
          .map(
            ([key, text]) => `${key}: "${pattern(variant).exec(text)![0]}" (${name}: say "${concept[language].term}")`,
          ),
      ),
    );
    expect(found).toEqual([]);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))(
    '%s: every message whose English speaks of a concept uses the glossary’s word for it',
    (language) => {
      const english = MESSAGES.get('en')!;
      const theirs = MESSAGES.get(language)!;
      const missing = CONCEPTS.flatMap(([name, concept]) =>
        [...english]
          .filter(([key, text]) => pattern(concept.en.uses).test(text) && theirs.has(key))
          .filter(([key]) => !pattern(concept[language].uses).test(theirs.get(key)!))
          .map(([key]) => `${key}: "${theirs.get(key)!.trim()}" (${name}: say "${concept[language].term}")`),
      );
      expect(missing).toEqual([]);
    },
  );
});
