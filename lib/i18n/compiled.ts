import compile from 'icu-minify/compile';
import type { Language } from './languages';
import { MESSAGES, type Messages } from './messages';

/**
 * The catalogue with every message compiled ahead of use by icu-minify (use-intl's own compiler): what the
 * pages and their client components format with. The bundler points use-intl's formatter at its
 * `format-only` form (next.config.mjs), so the browser downloads no ICU parser (intl-messageformat, 10.9 kB of
 * gzipped JavaScript on /batches). A message without arguments compiles to itself, so `useMessages()` still
 * reads plain strings (the export's words). Compiled once per language, on the server.
 */
const compiled = new Map<Language, Messages>();

function compileAll(value: unknown): unknown {
  // Through JSON: icu-minify builds plural and select options as null-prototype objects, which React will not
  // hand from a server component to a client one.
  if (typeof value === 'string') return JSON.parse(JSON.stringify(compile(value))) as unknown;
  return Object.fromEntries(Object.entries(value as object).map(([key, inner]) => [key, compileAll(inner)]));
}

export function compiledMessages(language: Language): Messages {
  let messages = compiled.get(language);
  // Typed as the source catalogue: use-intl's types describe keys and arguments, which compiling keeps.
  if (!messages) compiled.set(language, (messages = compileAll(MESSAGES[language]) as Messages));
  return messages;
}
