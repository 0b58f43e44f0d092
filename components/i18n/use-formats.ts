'use client';

import { useContext } from 'react';
import { formatsFor, type Formats } from '@/lib/i18n/formats';
import { ReaderContext } from './i18n-provider';

/** The reader's number and date formatters (`93,4 %` in a German browser). */
export function useFormats(): Formats {
  return formatsFor(useContext(ReaderContext).locale);
}

/** The reader's language and locale. */
export const useReader = () => useContext(ReaderContext);
