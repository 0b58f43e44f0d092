import deAlerts from '@/messages/de/alerts.json';
import deAnalysis from '@/messages/de/analysis.json';
import deCommon from '@/messages/de/common.json';
import deErrors from '@/messages/de/errors.json';
import deExplorer from '@/messages/de/explorer.json';
import deExport from '@/messages/de/export.json';
import dePeople from '@/messages/de/people.json';
import dePrint from '@/messages/de/print.json';
import deReports from '@/messages/de/reports.json';
import deSignIn from '@/messages/de/sign-in.json';
import deSso from '@/messages/de/sso.json';
import enAlerts from '@/messages/en/alerts.json';
import enAnalysis from '@/messages/en/analysis.json';
import enCommon from '@/messages/en/common.json';
import enErrors from '@/messages/en/errors.json';
import enExplorer from '@/messages/en/explorer.json';
import enExport from '@/messages/en/export.json';
import enPeople from '@/messages/en/people.json';
import enPrint from '@/messages/en/print.json';
import enReports from '@/messages/en/reports.json';
import enSignIn from '@/messages/en/sign-in.json';
import enSso from '@/messages/en/sso.json';
import nlAlerts from '@/messages/nl/alerts.json';
import nlAnalysis from '@/messages/nl/analysis.json';
import nlCommon from '@/messages/nl/common.json';
import nlErrors from '@/messages/nl/errors.json';
import nlExplorer from '@/messages/nl/explorer.json';
import nlExport from '@/messages/nl/export.json';
import nlPeople from '@/messages/nl/people.json';
import nlPrint from '@/messages/nl/print.json';
import nlReports from '@/messages/nl/reports.json';
import nlSignIn from '@/messages/nl/sign-in.json';
import nlSso from '@/messages/nl/sso.json';
import type { Language } from './languages';

/**
 * The interface text, one catalogue per language, one file per part of the app (`messages/<language>/`).
 * English is the source and the type: a key missing in German or Dutch is a type error here, and a unit test
 * checks that every message has the same placeholders in every language.
 */
const en = {
  alerts: enAlerts,
  analysis: enAnalysis,
  common: enCommon,
  errors: enErrors,
  explorer: enExplorer,
  export: enExport,
  people: enPeople,
  print: enPrint,
  reports: enReports,
  signIn: enSignIn,
  sso: enSso,
};
export type Messages = typeof en;

export const MESSAGES: Record<Language, Messages> = {
  en,
  de: {
    alerts: deAlerts,
    analysis: deAnalysis,
    common: deCommon,
    errors: deErrors,
    explorer: deExplorer,
    export: deExport,
    people: dePeople,
    print: dePrint,
    reports: deReports,
    signIn: deSignIn,
    sso: deSso,
  },
  nl: {
    alerts: nlAlerts,
    analysis: nlAnalysis,
    common: nlCommon,
    errors: nlErrors,
    explorer: nlExplorer,
    export: nlExport,
    people: nlPeople,
    print: nlPrint,
    reports: nlReports,
    signIn: nlSignIn,
    sso: nlSso,
  },
};
