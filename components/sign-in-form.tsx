'use client';

import { useEffect, useState, type FormEvent } from 'react';
import { useTranslations } from 'use-intl';
import styles from './sign-in-form.module.css';

const FIELDS = ['email', 'password'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY_MESSAGES = { email: 'enterEmail', password: 'enterPassword' } as const;

/** The fields left empty, each with what to enter: checked here so an empty form is never posted. */
function emptyFields(
  form: FormData,
  say: (key: (typeof EMPTY_MESSAGES)[Field]) => string,
): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) if (!String(form.get(field) ?? '')) out[field] = say(EMPTY_MESSAGES[field]);
  return out;
}

/** Posts the person's e-mail and password to the BFF; shows empty fields, wrong-credential and outage errors inline. */
export function SignInForm({ next }: { next: string }) {
  const t = useTranslations('signIn');
  const te = useTranslations('errors');
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  // Until React has hydrated the form, submitting would post it natively: keep the button off until then.
  const [ready, setReady] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- runs once, to learn that hydration happened
  useEffect(() => setReady(true), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const empty = emptyFields(form, t);
    setMissing(empty);
    const first = (Object.keys(empty) as Field[])[0];
    if (first) {
      setError(null);
      event.currentTarget.querySelector<HTMLInputElement>(`#${first}`)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const response = await fetch('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: form.get('email'), password: form.get('password') }),
      });
      if (response.status === 204) {
        // A full page load: the next page starts clean with the new session.
        window.location.assign(next);
        return;
      }
      const detail = ((await response.json().catch(() => ({}))) as { detail?: string }).detail;
      const wait = Number(response.headers.get('retry-after'));
      if (response.status === 401) setError(te('wrongCredentials'));
      else if (response.status === 403 && detail?.startsWith('email:')) setError(te('accountDisabled'));
      else if (response.status === 503)
        setError(wait > 0 ? te('serviceDownFor', { seconds: wait }) : te('serviceDown'));
      else if (response.status === 429) {
        setError(
          wait > 5400
            ? te('tooManySignInsHours', { hours: Math.ceil(wait / 3600) })
            : wait > 90
              ? te('tooManySignInsMinutes', { minutes: Math.ceil(wait / 60) })
              : te('tooManySignIns', { seconds: wait }),
        );
      } else setError(detail ? sentenceOf(detail) : te('signInFailed', { status: response.status }));
    } catch {
      setError(te('unreachable'));
    }
    setBusy(false);
  }

  return (
    // method="post": even a submit that beats hydration never puts the password in the URL.
    <form className={styles.form} onSubmit={submit} method="post" noValidate>
      <label htmlFor="email">{t('email')}</label>
      <input
        id="email"
        name="email"
        type="email"
        autoComplete="username"
        required
        spellCheck={false}
        {...invalid('email', missing.email)}
      />
      <FieldError field="email" message={missing.email} />
      <label htmlFor="password">{t('password')}</label>
      <input
        id="password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        {...invalid('password', missing.password)}
      />
      <FieldError field="password" message={missing.password} />
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      <button type="submit" disabled={busy || !ready}>
        {busy ? t('submitting') : t('submit')}
      </button>
    </form>
  );
}

/** `email: the e-mail address is empty; enter …` as a person reads it: without the field name meant for programs. */
function sentenceOf(detail: string): string {
  const text = detail.replace(/^[\w.[\]]+: /, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

const invalid = (field: Field, message: string | undefined) =>
  message ? { 'aria-invalid': true, 'aria-describedby': `${field}-error` } : {};

function FieldError({ field, message }: { field: Field; message: string | undefined }) {
  return message ? (
    <p id={`${field}-error`} className={styles.fieldError}>
      {message}
    </p>
  ) : null;
}
