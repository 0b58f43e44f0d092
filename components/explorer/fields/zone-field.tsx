'use client';

import { useMemo, useRef, useState } from 'react';
import { useTranslations } from 'use-intl';
import { canonicalZone, viewerZone, zoneChoices, type Zone } from '@/lib/explorer/zones';
import styles from '../view/explorer.module.css';

type Props = { value: Zone; onCommit: (zone: Zone) => void };

/**
 * The zone days are read in: a text field with every IANA zone as suggestions (the browser's zone first,
 * then UTC), searchable by typing. It changes the URL only for a real zone: as soon as what is typed names
 * exactly one zone of the list, on a suggestion picked, on Enter or on leaving; otherwise help beside it.
 */
export function ZoneField({ value, onCommit }: Props) {
  const t = useTranslations('explorer.range');
  const browser = useMemo(() => viewerZone(), []);
  const choices = useMemo(() => zoneChoices(browser), [browser]);
  const [draft, setDraft] = useState(value);
  const [help, setHelp] = useState<string | null>(null);
  const [shown, setShown] = useState(value);
  const selecting = useRef(false);
  if (shown !== value) {
    setShown(value);
    setDraft(value);
    setHelp(null);
  }

  const commit = (text: string, quiet = false) => {
    const zone = canonicalZone(text.trim());
    if (!zone) {
      if (!quiet) setHelp(t('notAZone'));
      return;
    }
    setHelp(null);
    setDraft(zone);
    if (zone !== value) onCommit(zone);
  };

  /** Typed text that is a zone of the list and the start of no other: nothing more can be meant. */
  const settled = (text: string) => {
    const lower = text.trim().toLowerCase();
    const starting = choices.filter((z) => z.toLowerCase().startsWith(lower));
    return starting.length === 1 && starting[0]!.toLowerCase() === lower;
  };

  return (
    <span className={styles.dayField}>
      <label htmlFor="zone-input">{t('zone')}</label>
      <input
        id="zone-input"
        className={styles.zoneInput}
        list="zone-choices"
        value={draft}
        autoComplete="off"
        spellCheck={false}
        aria-invalid={help ? true : undefined}
        aria-describedby="zone-help"
        // Focus selects the name, so that typing replaces it; the mouse-up of a click would undo that.
        onFocus={(e) => {
          e.currentTarget.select();
          selecting.current = true;
        }}
        onMouseUp={(e) => {
          if (selecting.current) e.preventDefault();
          selecting.current = false;
        }}
        onChange={(e) => {
          setDraft(e.target.value);
          setHelp(null); // being corrected: judged again on Enter or leaving
          // A suggestion picked from the list arrives whole ('insertReplacementText'), typing letter by letter.
          const picked = (e.nativeEvent as InputEvent).inputType === 'insertReplacementText';
          if (picked || settled(e.target.value)) commit(e.target.value, true);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value);
          if (e.key === 'Escape') {
            setDraft(value);
            setHelp(null);
          }
        }}
        onBlur={(e) => commit(e.currentTarget.value)}
      />
      <datalist id="zone-choices">
        {choices.map((z) => (
          <option key={z} value={z} label={z === browser ? t('browserZoneOption') : undefined} />
        ))}
      </datalist>
      <span id="zone-help" className={help ? styles.fieldHelp : styles.muted}>
        {help ?? (value === browser ? t('isBrowserZone') : t('browserZone', { zone: browser }))}
      </span>
    </span>
  );
}
