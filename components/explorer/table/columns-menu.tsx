'use client';

import { useEffect, useRef } from 'react';
import { useTranslations } from 'use-intl';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { COLUMNS } from './columns';
import { keepOnPage } from '../menus/keep-on-page';
import styles from '../view/explorer.module.css';

type Props = { hidden: Set<string>; update: (patch: Partial<ExplorerState>) => void };

/** Show/hide columns in a disclosure that behaves like a menu: Escape closes it (focus back on Columns), so does a click outside. */
export function ColumnsMenu({ hidden, update }: Props) {
  const t = useTranslations('explorer');
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const onPointer = (e: PointerEvent) => {
      const d = details.current;
      if (d?.open && !d.contains(e.target as Node)) d.open = false;
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, []);

  return (
    <details
      ref={details}
      className={styles.columns}
      onToggle={(e) => e.currentTarget.open && keepOnPage(e.currentTarget.querySelector('div'))}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !details.current?.open) return;
        e.preventDefault();
        details.current.open = false;
        details.current.querySelector('summary')?.focus();
      }}
    >
      <summary className="button">{t('filters.columns')}</summary>
      <div className={styles.columnMenu}>
        {COLUMNS.map((c) => (
          <label key={c.id} className={styles.check}>
            <input
              type="checkbox"
              aria-label={t('filters.showColumn', { column: t(`columns.${c.id}`) })}
              checked={!hidden.has(c.id)}
              onChange={(e) => {
                const next = new Set(hidden);
                if (e.target.checked) next.delete(c.id);
                else next.add(c.id);
                update({ hide: [...next].join(',') });
              }}
            />{' '}
            {t(`columns.${c.id}`)}
          </label>
        ))}
      </div>
    </details>
  );
}
