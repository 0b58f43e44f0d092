import 'server-only';
import { cookies, headers } from 'next/headers';
import { createTranslator } from 'use-intl/core';
import {
  isLanguage,
  LANGUAGE_COOKIE,
  messageLocale,
  readerLocale,
  type Language,
  type ReaderLocale,
} from '@/lib/i18n/languages';
import { compiledMessages } from '@/lib/i18n/compiled';
import type { Messages } from '@/lib/i18n/messages';

/** This request's reader: the browser's Accept-Language and the language switch's cookie. */
export async function requestReader(): Promise<ReaderLocale> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  return readerLocale(h.get('accept-language'), c.get(LANGUAGE_COOKIE)?.value);
}

/** A translator for server components (pages, metadata) in this request's language. */
export async function serverTranslator<N extends keyof Messages>(namespace: N) {
  return translatorFor(await requestReader(), namespace);
}

/** A translator in a given reader's language (a route handler that read the reader from its request). */
export function translatorFor<N extends keyof Messages>(reader: ReaderLocale, namespace: N) {
  return createTranslator({ locale: messageLocale(reader), messages: compiledMessages(reader.language), namespace });
}

/** What the language switch shows: the cookie's choice ('' for none) and the language the browser asks for. */
export async function languageChoice(): Promise<{ chosen: Language | ''; browser: Language }> {
  const [h, c] = await Promise.all([headers(), cookies()]);
  const cookie = c.get(LANGUAGE_COOKIE)?.value;
  return { chosen: isLanguage(cookie) ? cookie : '', browser: readerLocale(h.get('accept-language'), null).language };
}
