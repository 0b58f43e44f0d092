import { languageChoice } from '@/lib/server/reader-locale';
import { LanguageSwitch } from './language-switch';

/** The language switch with this request's choice and browser language. */
export async function ServerLanguageSwitch() {
  return <LanguageSwitch {...await languageChoice()} />;
}
