import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { I18nProvider } from '@/components/i18n/i18n-provider';
import { compiledMessages } from '@/lib/i18n/compiled';
import { requestReader, serverTranslator } from '@/lib/server/http/reader-locale';
import './globals.css';
import './print.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = await serverTranslator('common');
  return { title: { default: t('brand'), template: `%s · ${t('brand')}` }, description: t('description') };
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Reading the request makes every page dynamic, which the per-request CSP nonce (proxy.ts) needs; it also
  // tells the reader's language and locale (Accept-Language and the language switch's cookie).
  const reader = await requestReader();
  return (
    <html lang={reader.language}>
      <body>
        <I18nProvider reader={reader} messages={compiledMessages(reader.language)}>
          {children}
        </I18nProvider>
      </body>
    </html>
  );
}
