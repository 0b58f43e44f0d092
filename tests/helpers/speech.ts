import { createTranslator } from 'use-intl/core';
import type { Speech } from '@/lib/explorer/speech';
import { formatsFor } from '@/lib/i18n/formats';
import type { Language } from '@/lib/i18n/languages';
import { MESSAGES } from '@/lib/i18n/messages';

/** The analysis messages and formatters of a reader: `speech('de', 'de-DE')`; English in en-GB as the e2e browser has it. */
export function speech(language: Language = 'en', locale = 'en-GB'): Speech {
  return {
    f: formatsFor(locale),
    t: createTranslator({ locale, messages: MESSAGES[language], namespace: 'analysis' }),
  };
}
