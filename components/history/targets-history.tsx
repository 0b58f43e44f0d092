'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'use-intl';
import { RoleGate } from '@/components/auth/role-gate';
import { useFormats } from '@/components/i18n/use-formats';
import type { TargetHistoryEntry, TargetSettings } from '@/lib/contract/targets';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { callApi } from '@/lib/people/api-client';
import { targetChanges, type TargetChange } from '@/lib/people/targets-diff';
import styles from './targets-history.module.css';

export const HISTORY_KEY = ['settings', 'targets', 'history'] as const;

/**
 * The organisation's saved target sets, newest first (the first is in force): who saved each and when, what it
 * changed from the one before, and **Restore** for an earlier one (editors and administrators; a save of its
 * own, in the history and the activity log).
 */
export function TargetsHistory({ zone, onRestored }: { zone: string; onRestored: (settings: TargetSettings) => void }) {
  const t = useTranslations('people.targetsHistory');
  const f = useFormats();
  const client = useQueryClient();
  const history = useQuery<{ entries: TargetHistoryEntry[] }, ApiFailure>({
    queryKey: HISTORY_KEY,
    queryFn: ({ signal }) => callApi('/api/settings/targets/history', { signal }),
    retry: false,
  });
  const restore = useMutation<TargetSettings, ApiFailure, string>({
    mutationFn: (id) => callApi(`/api/settings/targets/history/${encodeURIComponent(id)}/restore`, { method: 'POST' }),
    onSuccess: (settings) => onRestored(settings),
    onSettled: () => client.invalidateQueries({ queryKey: HISTORY_KEY }),
  });
  const pct = (v: number | null) => (v === null ? t('none') : f.percentUpTo(v));
  const describe = (c: TargetChange) =>
    t('change', {
      target: c.crop === null ? t(`general.${c.metric}`) : t(`crop.${c.metric}`, { crop: c.crop }),
      before: pct(c.before),
      after: pct(c.after),
    });

  if (history.isPending) return <p className={styles.muted}>{t('loading')}</p>;
  if (history.isError) return <p role="alert">{t('loadFailed', { detail: history.error.detail })}</p>;
  const entries = history.data.entries;
  if (entries.length === 0) return <p className={styles.muted}>{t('empty')}</p>;
  return (
    <div className={styles.wrap}>
      <table className={styles.table}>
        <caption className="visually-hidden">{t('caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('when')}</th>
            <th scope="col">{t('who')}</th>
            <th scope="col">{t('what')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry, i) => {
            const changes = targetChanges(entries[i + 1]?.targets ?? null, entry.targets);
            const when = f.dateTime(Date.parse(entry.savedAt), zone);
            return (
              <tr key={entry.id}>
                <td>{when}</td>
                <td>{entry.savedBy ? entry.savedBy.name || entry.savedBy.email : t('formerMember')}</td>
                <td>
                  {i === entries.length - 1 && changes.length > 0 ? (
                    t('first')
                  ) : changes.length === 0 ? (
                    t('noChange')
                  ) : (
                    <ul className={styles.changes}>
                      {changes.map((c) => (
                        <li key={`${c.crop}/${c.metric}`}>{describe(c)}</li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  {i === 0 ? (
                    <span className={styles.current}>{t('inForce')}</span>
                  ) : (
                    <RoleGate action="restoreTargets">
                      {(gate) => (
                        <button
                          type="button"
                          className="button"
                          aria-label={t('restoreOf', { when })}
                          disabled={!gate && restore.isPending}
                          onClick={() => restore.mutate(entry.id)}
                          {...gate}
                        >
                          {t('restore')}
                        </button>
                      )}
                    </RoleGate>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p aria-live="polite" className={styles.muted}>
        {restore.isSuccess ? t('restored') : ''}
      </p>
      {restore.isError && <p role="alert">{t('restoreFailed', { detail: restore.error.detail })}</p>}
    </div>
  );
}
