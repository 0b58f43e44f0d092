import type { ReactNode } from 'react';
import { layoutParams, pageActor } from '@/lib/server/auth/page-actor';

/**
 * Whether the page may be shown at all, decided here, before the page's loading state is streamed: signed out,
 * a real redirect to sign-in; another organisation's address (`org=`), a real 403 page.
 */
export default async function BatchesLayout({ children }: { children: ReactNode }) {
  await pageActor('/batches', await layoutParams());
  return children;
}
