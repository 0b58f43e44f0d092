'use client';

import { useId, useState } from 'react';
import styles from './targets-panel.module.css';

type Props = {
  label: string;
  value: number | null;
  /** Shown when empty: what applies instead (the general target), so the fallback is visible. */
  fallback: string;
  onChange: (value: number | null) => void;
};

/** Reads a percentage as typed: a valid number (or empty for "none") applies at once; anything else says why. */
export function parsePercent(text: string): { value: number | null } | { problem: string } {
  const t = text.trim().replace(',', '.');
  if (t === '') return { value: null };
  const v = Number(t);
  if (!Number.isFinite(v)) return { problem: 'Enter a number.' };
  if (v < 0 || v > 100) return { problem: 'Enter a percentage from 0 to 100.' };
  if (Math.abs(Math.round(v * 100) - v * 100) > 1e-6) return { problem: 'Use at most two decimals.' };
  return { value: v };
}

/** One target as a number field; the typed text is kept while it is not (yet) a valid percentage. */
export function TargetInput({ label, value, fallback, onChange }: Props) {
  const helpId = useId();
  const [text, setText] = useState(value === null ? '' : String(value));
  const [seen, setSeen] = useState(value);
  // A change from elsewhere (discard, preset, a colleague's targets) replaces the text.
  if (value !== seen) {
    setSeen(value);
    const typed = parsePercent(text);
    if (!('value' in typed) || typed.value !== value) setText(value === null ? '' : String(value));
  }
  // Chromium reports text that is not a number ("8e") as an empty value with validity.badInput.
  const [bad, setBad] = useState(false);
  const parsed = parsePercent(text);
  const problem = bad ? 'Enter a number.' : 'problem' in parsed ? parsed.problem : null;
  return (
    <span className={styles.field}>
      <input
        type="number"
        inputMode="decimal"
        min={0}
        max={100}
        step={0.5}
        aria-label={label}
        value={text}
        placeholder={fallback}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? helpId : undefined}
        onChange={(e) => {
          setBad(e.target.validity.badInput);
          if (e.target.validity.badInput) return;
          setText(e.target.value);
          const next = parsePercent(e.target.value);
          if ('value' in next && next.value !== value) {
            setSeen(next.value);
            onChange(next.value);
          }
        }}
      />
      {problem && (
        <span id={helpId} className={styles.problem}>
          {problem}
        </span>
      )}
    </span>
  );
}
