/**
 * Which language the interface speaks and which locale its numbers and dates follow, decided from what the
 * browser sends (Accept-Language) and the language switch (a cookie). The URL never carries either: a link
 * opens the same view in every reader's own language and notation.
 */

export const LANGUAGES = ['en', 'de', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language in its own words, as the switch offers it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', nl: 'Nederlands' };

/** The switch's choice; absent means "follow the browser". Not HttpOnly: the switch sets it in the page. */
export const LANGUAGE_COOKIE = 'lang';

export const isLanguage = (value: unknown): value is Language => (LANGUAGES as readonly unknown[]).includes(value);

export type ReaderLocale = {
  /** The interface text's language. */
  language: Language;
  /** The locale numbers, percentages, dates and times are written in (a BCP 47 tag such as `de-DE`). */
  locale: string;
};

/** The well-formed tags of an Accept-Language header, most wanted first (`q=0` means "not this one"). */
export function acceptedTags(header: string | null | undefined): string[] {
  if (!header) return [];
  const tags: { tag: string; q: number; at: number }[] = [];
  header.split(',').forEach((part, at) => {
    const [range, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    if (!range || range === '*' || !(weight > 0)) return;
    try {
      const [tag] = Intl.getCanonicalLocales(range.trim());
      if (tag) tags.push({ tag, q: weight, at });
    } catch {
      // Not a language tag: ignored, as browsers never send one.
    }
  });
  return tags.sort((a, b) => b.q - a.q || a.at - b.at).map((t) => t.tag);
}

const languageOf = (tag: string) => (tag.split('-')[0] ?? '').toLowerCase();

/**
 * The language is the switch's if set, else the browser's first one we have, else English. Numbers and
 * dates follow the browser's own first tag (an English interface in a French browser still writes `93,4 %`),
 * unless the switch chose another language: then the browser's tag of that language if it has one
 * (`de-AT`), else the language itself.
 */
export function readerLocale(
  acceptLanguage: string | null | undefined,
  chosen: string | null | undefined,
): ReaderLocale {
  const tags = acceptedTags(acceptLanguage);
  if (isLanguage(chosen)) {
    const own = tags.find((t) => languageOf(t) === chosen);
    return { language: chosen, locale: own ?? chosen };
  }
  const language = tags.map(languageOf).find(isLanguage) ?? 'en';
  return { language, locale: tags[0] ?? 'en' };
}

/**
 * The locale plural rules and numbers inside messages follow: the reader's locale when it is of the
 * message's language, else the language (English plural rules for English text in a French browser).
 */
export const messageLocale = ({ language, locale }: ReaderLocale) =>
  languageOf(locale) === language ? locale : language;
