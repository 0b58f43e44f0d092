'use client';

import { createContext, type ReactNode } from 'react';
import { IntlProvider } from 'use-intl';
import { messageLocale, type ReaderLocale } from '@/lib/i18n/languages';
import type { Messages } from '@/lib/i18n/messages';

export const ReaderContext = createContext<ReaderLocale>({ language: 'en', locale: 'en' });

/**
 * The reader's language and locale, decided on the server from the request (so the server's HTML and the
 * browser's render agree), and the messages of that language.
 */
export function I18nProvider({
  reader,
  messages,
  children,
}: {
  reader: ReaderLocale;
  messages: Messages;
  children: ReactNode;
}) {
  return (
    <ReaderContext value={reader}>
      {/* Dates are formatted with an explicit zone everywhere (lib/i18n/formats.ts); UTC here only keeps use-intl quiet. */}
      <IntlProvider locale={messageLocale(reader)} messages={messages} timeZone="UTC">
        {children}
      </IntlProvider>
    </ReaderContext>
  );
}
