import deAnalysis from '@/messages/de/analysis.json';
import deCommon from '@/messages/de/common.json';
import deErrors from '@/messages/de/errors.json';
import deExport from '@/messages/de/export.json';
import deSignIn from '@/messages/de/sign-in.json';
import enAnalysis from '@/messages/en/analysis.json';
import enCommon from '@/messages/en/common.json';
import enErrors from '@/messages/en/errors.json';
import enExport from '@/messages/en/export.json';
import enSignIn from '@/messages/en/sign-in.json';
import nlAnalysis from '@/messages/nl/analysis.json';
import nlCommon from '@/messages/nl/common.json';
import nlErrors from '@/messages/nl/errors.json';
import nlExport from '@/messages/nl/export.json';
import nlSignIn from '@/messages/nl/sign-in.json';
import type { Language } from './languages';

/**
 * The interface text, one catalogue per language, one file per part of the app (`messages/<language>/`).
 * English is the source and the type: a key missing in German or Dutch is a type error here, and a unit test
 * checks that every message has the same placeholders in every language.
 */
const en = { common: enCommon, signIn: enSignIn, errors: enErrors, analysis: enAnalysis, export: enExport };
export type Messages = typeof en;

export const MESSAGES: Record<Language, Messages> = {
  en,
  de: { common: deCommon, signIn: deSignIn, errors: deErrors, analysis: deAnalysis, export: deExport },
  nl: { common: nlCommon, signIn: nlSignIn, errors: nlErrors, analysis: nlAnalysis, export: nlExport },
};
