'use client';

import { useTranslations } from 'use-intl';

/** Last resort for a render failure: say so plainly and offer to try again. */
export default function BatchesError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations('common');
  return (
    <main style={{ padding: '2rem 1.25rem' }}>
      <h1>{t('errorTitle')}</h1>
      <p role="alert">{t('errorText')}</p>
      <button type="button" className="button" onClick={reset}>
        {t('tryAgain')}
      </button>
    </main>
  );
}
