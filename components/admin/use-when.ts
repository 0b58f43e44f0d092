'use client';

import { useFormats } from '@/components/i18n/use-formats';
import { viewerZone } from '@/lib/explorer/zones';

/** A server time (ISO) as the reader writes dates, in their own zone; a dash for none. */
export function useWhen(): (iso: string | null) => string {
  const f = useFormats();
  const zone = viewerZone();
  return (iso) => (iso ? f.dateTime(Date.parse(iso), zone) : '—');
}
