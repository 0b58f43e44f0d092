'use client';

import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslations } from 'use-intl';
import { parseDay } from '@/lib/explorer/date-range';
import styles from '../view/explorer.module.css';

/**
 * Chromium fills the year segment digit by digit (typing 2026 gives 0002, 0020, 0202, 2026), each a complete
 * value; years before this are read as still being typed. 1900 is before any tray scan and after any such
 * partial year but the last one.
 */
export const MIN_YEAR = 1900;

type Props = {
  /** The field's name, in the reader's language. */
  label: string;
  /** The day the URL's range stands for (YYYY-MM-DD), or undefined for an open end. */
  value: string | undefined;
  /** Puts a day (or undefined: the end is cleared, the range open) into the URL. */
  onCommit: (day: string | undefined) => void;
};

type Verdict = { ok: true; day: string | undefined } | { ok: false; help: string };
type RangeT = ReturnType<typeof useTranslations<'explorer.range'>>;

function judge(input: HTMLInputElement, t: RangeT): Verdict {
  // Segments left empty or a day that does not exist (Feb 29, 2026): the value is '' and the input says why.
  if (input.validity.badInput) return { ok: false, help: t('notADay') };
  if (input.value === '') return { ok: true, day: undefined };
  const day = parseDay(input.value);
  if (!day) return { ok: false, help: t('notADay') };
  if (day.y < MIN_YEAR)
    return { ok: false, help: t('shortYear', { year: input.value.slice(0, 4), min: String(MIN_YEAR) }) };
  return { ok: true, day: input.value };
}

/**
 * A native date field (the browser's locale orders its parts) holding a draft: the URL changes only when the
 * field holds a whole, real day, so a half-typed date never drops the range or starts a load.
 * - A day picked in the calendar (no typing) is taken at once.
 * - Typing: taken on Enter, on leaving the field, or when the year being typed reaches four digits.
 * - An incomplete or impossible day on Enter or leaving shows help beside the field; the URL and the rows
 *   stay. Escape puts back the URL's day. A field emptied on purpose opens that end of the range.
 */
export function DayField({ label, value, onCommit }: Props) {
  const t = useTranslations('explorer.range');
  const id = useId();
  const [draft, setDraft] = useState(value ?? '');
  const [help, setHelp] = useState<string | null>(null);
  const [shown, setShown] = useState(value);
  const typing = useRef(false);
  if (shown !== value) {
    // The URL changed (a preset, back/forward, or this field's own commit): show it.
    setShown(value);
    setDraft(value ?? '');
    setHelp(null);
  }

  const commit = (input: HTMLInputElement) => {
    const verdict = judge(input, t);
    if (!verdict.ok) return setHelp(verdict.help);
    setHelp(null);
    typing.current = false;
    if (verdict.day !== value) onCommit(verdict.day);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit(e.currentTarget);
    } else if (e.key === 'Escape' && (draft !== (value ?? '') || help)) {
      setDraft(value ?? '');
      setHelp(null);
      typing.current = false;
    } else if (e.key.length === 1 || e.key === 'Backspace' || e.key === 'Delete' || e.key.startsWith('Arrow')) {
      typing.current = true;
    }
  };

  return (
    <span className={styles.dayField}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        min={`${MIN_YEAR}-01-01`}
        max="9999-12-31"
        value={draft}
        aria-invalid={help ? true : undefined}
        aria-describedby={`${id}-help`}
        onPointerDown={() => (typing.current = false)}
        onKeyDown={onKeyDown}
        onBlur={(e) => commit(e.currentTarget)}
        onChange={(e) => {
          const input = e.currentTarget;
          const before = parseDay(draft);
          const now = parseDay(input.value);
          setDraft(input.value);
          const yearTyped = !!now && now.y >= MIN_YEAR && !!before && before.y < MIN_YEAR;
          if (!typing.current || yearTyped) commit(input);
        }}
      />
      <span id={`${id}-help`} className={styles.fieldHelp} aria-live="polite">
        {help}
      </span>
    </span>
  );
}
