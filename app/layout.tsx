import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import './globals.css';
import './print.css';

export const metadata: Metadata = {
  title: { default: 'Tray-scan batches', template: '%s · Tray-scan batches' },
  description: 'Germination and usable-seedling rates of your tray-scan batches',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Reading the request makes every page dynamic, which the per-request CSP nonce (proxy.ts) needs.
  await headers();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
