'use client';

import { useEffect, useState, type FormEvent } from 'react';
import { useTranslations } from 'use-intl';
import styles from '@/components/sign-in-form.module.css';

const MIN_PASSWORD = 12;

/**
 * Sets the person's password through a one-time link (an invite also sets their name), then opens the
 * organisation's batches signed in. A link used or expired meanwhile says so.
 */
export function LinkForm({
  token,
  kind,
  name: initialName,
  organisation,
}: {
  token: string;
  kind: 'invite' | 'reset';
  name: string;
  organisation: string;
}) {
  const t = useTranslations('people.link');
  const te = useTranslations('errors');
  const [name, setName] = useState(initialName);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<{ field: 'name' | 'password' | null; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [ready, setReady] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- runs once, to learn that hydration happened
  useEffect(() => setReady(true), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (kind === 'invite' && name.trim() === '') return setProblem({ field: 'name', text: t('enterName') });
    if (password.length < MIN_PASSWORD)
      return setProblem({ field: 'password', text: t('tooShort', { min: MIN_PASSWORD }) });
    setBusy(true);
    setProblem(null);
    try {
      const response = await fetch(`/api/links/${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(kind === 'invite' ? { name, password } : { password }),
      });
      if (response.status === 204) {
        // A full page load: the organisation's batches, signed in.
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination
        window.location.assign(`/batches?org=${encodeURIComponent(organisation)}`);
        return;
      }
      const detail = ((await response.json().catch(() => ({}))) as { detail?: string }).detail ?? '';
      setProblem(
        response.status === 404
          ? { field: null, text: t('gone') }
          : { field: detail.startsWith('name:') ? 'name' : 'password', text: detail.replace(/^\w+: /, '') },
      );
    } catch {
      setProblem({ field: null, text: te('unreachable') });
    }
    setBusy(false);
  }

  const described = (field: 'name' | 'password') =>
    problem?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${field}-problem` } : {};
  return (
    <form className={styles.form} onSubmit={submit} method="post" noValidate>
      {kind === 'invite' && (
        <>
          <label htmlFor="name">{t('name')}</label>
          <input
            id="name"
            name="name"
            autoComplete="name"
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
            {...described('name')}
          />
          {problem?.field === 'name' && (
            <p id="name-problem" className={styles.fieldError}>
              {problem.text}
            </p>
          )}
        </>
      )}
      <label htmlFor="password">{t('password')}</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="new-password"
        value={password}
        maxLength={1024}
        onChange={(e) => setPassword(e.target.value)}
        aria-describedby={problem?.field === 'password' ? 'password-problem' : 'password-help'}
        aria-invalid={problem?.field === 'password' || undefined}
      />
      {problem?.field === 'password' ? (
        <p id="password-problem" className={styles.fieldError}>
          {problem.text}
        </p>
      ) : (
        <p id="password-help" className={styles.help}>
          {t('passwordHelp', { min: MIN_PASSWORD })}
        </p>
      )}
      {problem && problem.field === null && (
        <p role="alert" className={styles.error}>
          {problem.text}
        </p>
      )}
      <button type="submit" disabled={busy || !ready}>
        {busy ? t('setting') : t('setPassword')}
      </button>
    </form>
  );
}
