'use client';

import { useState } from 'react';
import { useTranslations } from 'use-intl';
import styles from './admin.module.css';

/** A one-time link shown once, to copy and hand over (it is not shown again). */
export function CopyLink({ url, label }: { url: string; label: string }) {
  const t = useTranslations('people.admin');
  const [copied, setCopied] = useState(false);
  return (
    <div className={styles.link} role="group" aria-label={label}>
      <code>{url}</code>
      <button
        type="button"
        className="button"
        onClick={() =>
          void navigator.clipboard
            ?.writeText(url)
            .then(() => setCopied(true))
            .catch(() => setCopied(false))
        }
      >
        {copied ? t('copied') : t('copy')}
      </button>
      <span className={styles.muted}>{t('shownOnce')}</span>
    </div>
  );
}
