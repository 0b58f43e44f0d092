'use client';

import { useEffect, useState, type FormEvent } from 'react';
import styles from './sign-in-form.module.css';

const EMPTY_MESSAGES = { clientId: 'Enter your client ID.', clientSecret: 'Enter your client secret.' } as const;
type Field = keyof typeof EMPTY_MESSAGES;

/** The fields left empty, each with what to enter: checked here so an empty form is never posted. */
function emptyFields(form: FormData): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  for (const field of Object.keys(EMPTY_MESSAGES) as Field[]) if (!String(form.get(field) ?? '')) out[field] = EMPTY_MESSAGES[field];
  return out;
}

/** Posts the organisation credentials to the BFF; shows empty fields, wrong-credential and outage errors inline. */
export function SignInForm({ next }: { next: string }) {
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
    const empty = emptyFields(form);
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
        body: JSON.stringify({ clientId: form.get('clientId'), clientSecret: form.get('clientSecret') }),
      });
      if (response.status === 204) {
        // A full page load: the next page starts clean with the new session.
        window.location.assign(next);
        return;
      }
      const detail = ((await response.json().catch(() => ({}))) as { detail?: string }).detail;
      if (response.status === 401) setError('Wrong client ID or client secret.');
      else if (response.status === 503) {
        const wait = response.headers.get('retry-after');
        setError(`The Batch Data Service is unavailable right now. Try again${wait ? ` in ${wait} s` : ' shortly'}.`);
      } else if (response.status === 429) {
        const wait = Number(response.headers.get('retry-after'));
        const minutes = Math.ceil(wait / 60);
        setError(`Too many sign-in attempts. Try again in ${wait > 90 ? `${minutes} minutes` : `${wait} seconds`}.`);
      } else setError(detail ? sentenceOf(detail) : `Sign-in failed (${response.status}).`);
    } catch {
      setError('Could not reach the dashboard server. Check your connection and try again.');
    }
    setBusy(false);
  }

  return (
    // method="post": even a submit that beats hydration never puts the secret in the URL.
    <form className={styles.form} onSubmit={submit} method="post" noValidate>
      <label htmlFor="clientId">Client ID</label>
      <input id="clientId" name="clientId" autoComplete="username" required spellCheck={false} {...invalid('clientId', missing.clientId)} />
      <FieldError field="clientId" message={missing.clientId} />
      <label htmlFor="clientSecret">Client secret</label>
      <input id="clientSecret" name="clientSecret" type="password" autoComplete="current-password" required {...invalid('clientSecret', missing.clientSecret)} />
      <FieldError field="clientSecret" message={missing.clientSecret} />
      {error && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      <button type="submit" disabled={busy || !ready}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}

/** `clientId: the client ID is empty; enter …` as a person reads it: without the field name meant for programs. */
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
