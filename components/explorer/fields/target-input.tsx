'use client';

import { useId, useState } from 'react';
import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import styles from '../targets/targets-panel.module.css';

type Props = {
  label: string;
  value: number | null;
  /** Shown when empty: what applies instead (the general target), so the fallback is visible. */
  fallback: string;
  onChange: (value: number | null) => void;
};

type Problem = 'notANumber' | 'outOfRange' | 'tooPrecise';

/**
 * Reads a percentage as typed (`parse` reads the reader's decimal mark, and a point): a valid number (or
 * empty for "none") applies at once; anything else says why.
 */
export function parsePercent(
  text: string,
  parse: (text: string) => number | null,
): { value: number | null } | { problem: Problem } {
  if (text.trim() === '') return { value: null };
  const v = parse(text);
  if (v === null) return { problem: 'notANumber' };
  if (v < 0 || v > 100) return { problem: 'outOfRange' };
  if (Math.abs(Math.round(v * 100) - v * 100) > 1e-6) return { problem: 'tooPrecise' };
  return { value: v };
}

/**
 * One target as a text field in the reader's notation (`92,5` in German; a point is read too); the typed text
 * is kept while it is not (yet) a valid percentage. The value itself (URL, API) is a plain number.
 */
export function TargetInput({ label, value, fallback, onChange }: Props) {
  const t = useTranslations('explorer.targets');
  const f = useFormats();
  const shown = (v: number | null) => (v === null ? '' : f.number(v, 2));
  const helpId = useId();
  const [text, setText] = useState(shown(value));
  const [seen, setSeen] = useState(value);
  // A change from elsewhere (discard, preset, a colleague's targets) replaces the text.
  if (value !== seen) {
    setSeen(value);
    const typed = parsePercent(text, f.parseNumber);
    if (!('value' in typed) || typed.value !== value) setText(shown(value));
  }
  const parsed = parsePercent(text, f.parseNumber);
  const problem = 'problem' in parsed ? t(parsed.problem) : null;
  return (
    <span className={styles.field}>
      <input
        type="text"
        inputMode="decimal"
        autoComplete="off"
        aria-label={label}
        value={text}
        placeholder={fallback}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? helpId : undefined}
        onChange={(e) => {
          setText(e.target.value);
          const next = parsePercent(e.target.value, f.parseNumber);
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
