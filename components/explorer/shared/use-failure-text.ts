'use client';

import { useCallback } from 'react';
import { useTranslations } from 'use-intl';
import { ApiFailure } from '@/lib/explorer/api-failure';

/**
 * What a failed call to our API means, in the reader's language: the failures the browser itself names (no
 * answer, an unreadable one) and a settings store that is down are said in our words; any other failure is
 * the server's own `detail` (English, the API's contract).
 */
export function useFailureText(): (error: ApiFailure) => string {
  const t = useTranslations('explorer.failure');
  return useCallback(
    (error: ApiFailure) => {
      if (error.reason) return t(error.reason);
      if (error.status === 503 && /^settings: /.test(error.detail)) return t('storeUnavailable');
      return error.detail;
    },
    [t],
  );
}
