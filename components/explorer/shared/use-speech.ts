'use client';

import { useMemo } from 'react';
import { useTranslations } from 'use-intl';
import type { Speech } from '@/lib/explorer/speech';
import { useFormats } from '@/components/i18n/use-formats';

/** The reader's formatters and the analysis messages, as the analysis code in lib/ takes them (one object per language). */
export function useSpeech(): Speech {
  const t = useTranslations('analysis');
  const f = useFormats();
  return useMemo(() => ({ f, t }), [f, t]);
}
