'use client';

import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import { RoleGate, type GatedAction, type GateProps } from '@/components/auth/role-gate';
import { withOrg } from '@/lib/org-param';
import { MAX_VIEW_NAME, type SavedView } from '@/lib/contract/views';
import { useSavedViews, useViewProblem } from './use-saved-views';
import { ScheduleForm } from './schedule-form';
import styles from './saved-views.module.css';

type Views = ReturnType<typeof useSavedViews>;
type Props = { views: Views; onClose: () => void; onSaid: (text: string) => void };

/** The organisation's saved views: each opens in place, and can be renamed, deleted or made the default. */
export function SavedViewsList({ views, onClose, onSaid }: Props) {
  const t = useTranslations('explorer.views');
  const problemText = useViewProblem();
  const { list } = views;
  return (
    <section
      id="saved-views-list"
      aria-label={t('savedViews')}
      className={styles.panel}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !(e.target instanceof HTMLInputElement)) onClose();
      }}
    >
      {list.isPending ? (
        <p className={styles.muted}>{t('loading')}</p>
      ) : list.isError ? (
        <p role="alert" className={styles.problem}>
          {t('loadFailed', { detail: problemText(list.error) })}{' '}
          <button type="button" className="button" onClick={() => void list.refetch()}>
            {t('tryAgain')}
          </button>
        </p>
      ) : list.data.length === 0 ? (
        <p className={styles.muted}>{t('empty')}</p>
      ) : (
        <ul className={styles.list}>
          {list.data.map((view) => (
            <ViewRow key={view.id} view={view} views={views} onOpen={onClose} onSaid={onSaid} />
          ))}
        </ul>
      )}
    </section>
  );
}

type RowProps = { view: SavedView; views: Views; onOpen: () => void; onSaid: (text: string) => void };

function ViewRow({ view, views, onOpen, onSaid }: RowProps) {
  const t = useTranslations('explorer.views');
  const people = useTranslations('people.views');
  const problemText = useViewProblem();
  const [mode, setMode] = useState<'show' | 'rename' | 'delete' | 'schedule'>('show');
  const reports = useTranslations('reports.schedule');
  // A shared view is the organisation's: changing it needs an editor; the person's own view is theirs to change.
  const gated = (action: GatedAction, render: (gate: GateProps | null) => ReactNode) =>
    action === 'changeShared' && !view.shared ? (
      render(null)
    ) : (
      <RoleGate action={action} inline>
        {render}
      </RoleGate>
    );
  const { change, remove } = views;
  const href = withOrg(`/batches${view.query ? `?${view.query}` : ''}`);
  // In place, as the explorer's own changes are (history entry, no reload); a new tab or window is the link's.
  const open = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    window.history.pushState(null, '', href);
    onOpen();
  };
  const mine = (variables: unknown) =>
    variables === view.id || (variables as { id?: string } | undefined)?.id === view.id;
  const problem =
    change.isError && mine(change.variables)
      ? change.error
      : remove.isError && mine(remove.variables)
        ? remove.error
        : null;

  return (
    <li className={styles.row}>
      {mode === 'rename' ? (
        <RenameForm view={view} views={views} onDone={() => setMode('show')} onSaid={onSaid} />
      ) : (
        <>
          <a href={href} onClick={open} className={styles.name}>
            {view.name}
          </a>
          {view.isDefault && <span className={styles.badge}>{t('default')}</span>}
          <span className={styles.owner}>
            {view.shared
              ? view.mine || !view.owner
                ? people('shared')
                : people('sharedBy', { name: view.owner.name || view.owner.email })
              : people('onlyYou')}
          </span>
          <span className={styles.actions}>
            {gated('makeDefault', (gate) => (
              <button
                type="button"
                className="button"
                aria-label={
                  view.isDefault ? t('unsetDefaultOf', { name: view.name }) : t('makeDefaultOf', { name: view.name })
                }
                disabled={!gate && change.isPending}
                onClick={() =>
                  change.mutate(
                    { id: view.id, isDefault: !view.isDefault },
                    { onSuccess: (v) => onSaid(v.isDefault ? t('nowDefault', { name: v.name }) : t('noDefault')) },
                  )
                }
                {...gate}
              >
                {view.isDefault ? t('unsetDefault') : t('makeDefault')}
              </button>
            ))}
            {gated(view.shared ? 'changeShared' : 'shareView', (gate) => (
              <button
                type="button"
                className="button"
                aria-label={
                  view.shared ? people('unshareOf', { name: view.name }) : people('shareOf', { name: view.name })
                }
                disabled={!gate && change.isPending}
                onClick={() =>
                  change.mutate(
                    { id: view.id, shared: !view.shared },
                    {
                      onSuccess: (v) =>
                        onSaid(v.shared ? people('nowShared', { name: v.name }) : people('nowOwn', { name: v.name })),
                    },
                  )
                }
                {...gate}
              >
                {view.shared ? people('unshare') : people('share')}
              </button>
            ))}
            {gated('changeShared', (gate) => (
              <button
                type="button"
                className="button"
                aria-label={t('renameOf', { name: view.name })}
                onClick={() => {
                  change.reset();
                  setMode('rename');
                }}
                {...gate}
              >
                {t('rename')}
              </button>
            ))}
            <RoleGate action="scheduleReport" inline>
              {(gate) => (
                <button
                  type="button"
                  className="button"
                  aria-label={reports('sendOnScheduleOf', { name: view.name })}
                  aria-expanded={mode === 'schedule'}
                  onClick={() => setMode(mode === 'schedule' ? 'show' : 'schedule')}
                  {...gate}
                >
                  {reports('sendOnSchedule')}
                </button>
              )}
            </RoleGate>
            {mode === 'delete' ? (
              <span role="group" aria-label={t('deleteQuestion', { name: view.name })} className={styles.confirm}>
                {view.shared ? t('deleteForEveryone') : people('deleteOwn')}
                <button
                  type="button"
                  className="button"
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(view.id, { onSuccess: () => onSaid(t('deleted', { name: view.name })) })}
                >
                  {t('delete')}
                </button>
                <button type="button" className="button" onClick={() => setMode('show')}>
                  {t('keep')}
                </button>
              </span>
            ) : (
              gated('changeShared', (gate) => (
                <button
                  type="button"
                  className="button"
                  aria-label={t('deleteOf', { name: view.name })}
                  onClick={() => setMode('delete')}
                  {...gate}
                >
                  {t('delete')}
                </button>
              ))
            )}
          </span>
        </>
      )}
      {mode === 'schedule' && <ScheduleForm view={view} onDone={() => setMode('show')} onSaid={onSaid} />}
      {problem && mode !== 'rename' && (
        <p role="alert" className={styles.problem}>
          {problemText(problem)}
        </p>
      )}
    </li>
  );
}

function RenameForm({
  view,
  views,
  onDone,
  onSaid,
}: {
  view: SavedView;
  views: Views;
  onDone: () => void;
  onSaid: (text: string) => void;
}) {
  const t = useTranslations('explorer.views');
  const problemText = useViewProblem();
  const [name, setName] = useState(view.name);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);
  const { change } = views;
  const error = change.isError && change.variables?.id === view.id ? change.error : null;
  return (
    <form
      className={styles.rename}
      aria-label={t('renameForm', { name: view.name })}
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
      onSubmit={(e) => {
        e.preventDefault();
        change.mutate({ id: view.id, name }, { onSuccess: (v) => (onDone(), onSaid(t('renamed', { name: v.name }))) });
      }}
    >
      <label className={styles.field}>
        {t('newName')}
        <input
          ref={input}
          value={name}
          maxLength={MAX_VIEW_NAME}
          aria-invalid={!!error}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <button type="submit" className="button" disabled={name.trim() === '' || change.isPending}>
        {t('save')}
      </button>
      <button type="button" className="button" onClick={onDone}>
        {t('cancel')}
      </button>
      {error && (
        <p role="alert" className={styles.problem}>
          {t('notRenamed', { detail: problemText(error) })}
        </p>
      )}
    </form>
  );
}
