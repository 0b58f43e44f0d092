'use client';

import { useEffect, useState, type FormEvent } from 'react';
import styles from './sign-in-form.module.css';

/** Posts the organisation credentials to the BFF; shows wrong-credential and outage errors inline. */
export function SignInForm({ next }: { next: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Until React has hydrated the form, submitting would post it natively: keep the button off until then.
  const [ready, setReady] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- runs once, to learn that hydration happened
  useEffect(() => setReady(true), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
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
      } else setError(detail ?? `Sign-in failed (${response.status}).`);
    } catch {
      setError('Could not reach the dashboard server. Check your connection and try again.');
    }
    setBusy(false);
  }

  return (
    // method="post": even a submit that beats hydration never puts the secret in the URL.
    <form className={styles.form} onSubmit={submit} method="post" noValidate>
      <label htmlFor="clientId">Client ID</label>
      <input id="clientId" name="clientId" autoComplete="username" required spellCheck={false} />
      <label htmlFor="clientSecret">Client secret</label>
      <input id="clientSecret" name="clientSecret" type="password" autoComplete="current-password" required />
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
