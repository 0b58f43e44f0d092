import 'server-only';
import format, { type CompiledMessage } from 'icu-minify/format';
import type { createTranslator } from 'use-intl/core';
import { compiledMessages } from '../../i18n/compiled';
import { messageLocale, type ReaderLocale } from '../../i18n/languages';
import type { Messages } from '../../i18n/messages';

const formatters = {
  getDateTimeFormat: (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
  getNumberFormat: (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
  getPluralRules: (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
};

/**
 * A translator of one namespace for text made away from any request (a scheduled report's e-mail and workbook):
 * the catalogue compiled as the pages' is, formatted with icu-minify's own formatter, so it reads the same under
 * Next's build (whose use-intl formats only compiled messages) and in plain Node (whose use-intl parses them).
 */
export function reportTranslator<N extends keyof Messages>(
  reader: ReaderLocale,
  namespace: N,
): ReturnType<typeof createTranslator<Messages, N>> {
  const messages = compiledMessages(reader.language)[namespace] as unknown as Record<string, unknown>;
  const locale = messageLocale(reader);
  const t = (key: string, values?: Record<string, string | number>) => {
    const message = key.split('.').reduce<unknown>((m, k) => (m as Record<string, unknown> | undefined)?.[k], messages);
    if (message === undefined || (typeof message === 'object' && !Array.isArray(message))) return `${namespace}.${key}`;
    const out = format(message as CompiledMessage, locale, values, { formatters });
    return Array.isArray(out) ? out.join('') : String(out);
  };
  return t as unknown as ReturnType<typeof createTranslator<Messages, N>>;
}
