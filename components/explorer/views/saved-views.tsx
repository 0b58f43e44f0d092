'use client';

import { useEffect, useRef, useState } from 'react';
import { useTranslations } from 'use-intl';
import { RoleGate } from '@/components/auth/role-gate';
import { MAX_VIEW_NAME } from '@/lib/contract/views';
import { SavedViewsList } from './saved-views-list';
import { useSavedViews, useViewProblem } from './use-saved-views';
import styles from './saved-views.module.css';

type Open = 'save' | 'list' | null;

/**
 * **Save view** names the view on screen (everything in its URL) for the organisation; **Saved views** lists
 * the organisation's views to open, rename, delete or make the one `/batches` opens with.
 */
export function SavedViews() {
  const t = useTranslations('explorer.views');
  const [open, setOpen] = useState<Open>(null);
  const [said, setSaid] = useState('');
  const views = useSavedViews(open === 'list');
  const listButton = useRef<HTMLButtonElement>(null);
  const toggle = (which: Exclude<Open, null>) => {
    views.create.reset();
    setSaid('');
    setOpen((now) => (now === which ? null : which));
  };
  const close = () => {
    setOpen(null);
    listButton.current?.focus();
  };

  return (
    <div className={styles.views}>
      <div className={styles.buttons}>
        <button
          type="button"
          className="button"
          aria-expanded={open === 'save'}
          aria-controls="save-view-form"
          onClick={() => toggle('save')}
        >
          {t('saveView')}
        </button>
        <button
          ref={listButton}
          type="button"
          className="button"
          aria-expanded={open === 'list'}
          aria-controls="saved-views-list"
          onClick={() => toggle('list')}
        >
          {t('savedViews')}
        </button>
        <span aria-live="polite" className={styles.said}>
          {said}
        </span>
      </div>
      {open === 'save' && (
        <SaveViewForm
          views={views}
          onCancel={() => setOpen(null)}
          onSaved={(name) => {
            setOpen(null);
            setSaid(t('savedAs', { name }));
          }}
        />
      )}
      {open === 'list' && <SavedViewsList views={views} onClose={close} onSaid={setSaid} />}
    </div>
  );
}

type FormProps = { views: ReturnType<typeof useSavedViews>; onCancel: () => void; onSaved: (name: string) => void };

function SaveViewForm({ views, onCancel, onSaved }: FormProps) {
  const t = useTranslations('explorer.views');
  const problemText = useViewProblem();
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const people = useTranslations('people.views');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const { create } = views;
  return (
    <form
      id="save-view-form"
      aria-label={t('saveView')}
      className={styles.form}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
      onSubmit={(e) => {
        e.preventDefault();
        // The address bar itself: the whole view, the zone included, as a colleague's link would carry it.
        create.mutate(
          { name, query: window.location.search.slice(1), shared },
          { onSuccess: (view) => onSaved(view.name) },
        );
      }}
    >
      <label className={styles.field}>
        {t('viewName')}
        <input
          ref={input}
          value={name}
          maxLength={MAX_VIEW_NAME}
          aria-invalid={create.isError}
          aria-describedby={create.isError ? 'save-view-problem' : undefined}
          onChange={(e) => {
            setName(e.target.value);
            if (create.isError) create.reset();
          }}
        />
      </label>
      <RoleGate action="shareView">
        {(gate) => (
          <label className={styles.share}>
            <input type="checkbox" checked={shared} onChange={(e) => !gate && setShared(e.target.checked)} {...gate} />
            {people('shareWithOrganisation')}
          </label>
        )}
      </RoleGate>
      <button type="submit" className="button" disabled={name.trim() === '' || create.isPending}>
        {create.isPending ? t('saving') : t('save')}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        {t('cancel')}
      </button>
      {create.isError && (
        <p id="save-view-problem" role="alert" className={styles.problem}>
          {t('notSaved', { detail: problemText(create.error) })}
        </p>
      )}
    </form>
  );
}
