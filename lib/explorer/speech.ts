import type { createTranslator } from 'use-intl/core';
import type { Formats } from '../i18n/formats';
import type { Messages } from '../i18n/messages';

/** The analysis views' messages (`useTranslations('analysis')` in a component, `createTranslator` in a test). */
export type AnalysisT = ReturnType<typeof createTranslator<Messages, 'analysis'>>;

/**
 * What the analysis code in lib/ needs to say something in the reader's language: the reader's number and date
 * formatters and the analysis messages. Passed in, so lib/ stays free of React.
 */
export type Speech = { f: Formats; t: AnalysisT };
