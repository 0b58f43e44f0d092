'use client';

import { useTranslations } from 'use-intl';
import { LANGUAGE_COOKIE, LANGUAGE_NAMES, LANGUAGES, type Language } from '@/lib/i18n/languages';

const YEAR = 60 * 60 * 24 * 365;

/**
 * The interface language: the browser's (`browser`) unless chosen here (`chosen`, both read by the server
 * from the request). The choice is a cookie (the URL stays free of language, so a shared link opens in each
 * reader's own), and the page loads again in the new language.
 */
export function LanguageSwitch({ chosen, browser }: { chosen: Language | ''; browser: Language }) {
  const t = useTranslations('common');
  return (
    <label className="language-switch">
      <span>{t('language')}</span>
      <select
        defaultValue={chosen}
        onChange={(event) => {
          const value = event.target.value;
          document.cookie = value
            ? `${LANGUAGE_COOKIE}=${value}; path=/; max-age=${YEAR}; samesite=lax`
            : `${LANGUAGE_COOKIE}=; path=/; max-age=0; samesite=lax`;
          window.location.reload();
        }}
      >
        <option value="">{t('languageAuto', { language: LANGUAGE_NAMES[browser] })}</option>
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}
