'use client';

import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import type { Zone } from '@/lib/explorer/date-range';
import type { useTargets } from './use-targets';
import styles from './targets-panel.module.css';

type Props = {
  conflict: NonNullable<ReturnType<typeof useTargets>['conflict']>;
  zone: Zone;
};

/**
 * A save refused because a colleague saved first: when they did, in the reader's language and time, and the two
 * ways on. Said once their version has been read (a moment), so the alert is announced once and names the time;
 * while Keep mine saves, the panel's Save button says so.
 */
export function TargetsConflict({ conflict, zone }: Props) {
  const say = useTranslations('explorer.targets');
  const f = useFormats();
  if (conflict.reading) return null;
  // The alert goes with either choice: keyboard focus moves to the panel's heading rather than to the page's start.
  const then = (choice: () => void) => () => {
    document.getElementById('targets-title')?.focus();
    choice();
  };
  return (
    <div role="alert" className={styles.problemBox}>
      <p>
        {conflict.at && conflict.by
          ? say('conflictBy', { name: conflict.by, when: f.dateTime(Date.parse(conflict.at), zone) })
          : conflict.at
            ? say('conflictAt', { when: f.dateTime(Date.parse(conflict.at), zone) })
            : say('conflictUnknown')}
      </p>
      <div className={styles.actions}>
        <button type="button" className="button" onClick={then(conflict.reload)}>
          {say('reload')}
        </button>
        <button type="button" className="button" onClick={then(conflict.keepMine)}>
          {say('keepMine')}
        </button>
      </div>
    </div>
  );
}
