'use client';

import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useMessages } from 'use-intl';
import type { ExportFormat } from './exports';
import { keepOnPage } from '../menus/keep-on-page';
import styles from '../view/explorer.module.css';

type Props = { disabled: boolean; onExport: (format: ExportFormat) => Promise<void> };

const ITEMS: { format: ExportFormat; key: 'xlsx' | 'csv' | 'apiCsv' }[] = [
  { format: 'xlsx', key: 'xlsx' },
  { format: 'csv', key: 'csv' },
  { format: 'api-csv', key: 'apiCsv' },
];

/**
 * The Export button and its menu (the ARIA menu button pattern): arrows move between the formats, Escape
 * closes and focus goes back to the button, so does a click outside; the button says "busy" while a
 * workbook is being made.
 */
export function ExportMenu({ disabled, onExport }: Props) {
  const words = useMessages().export.menu;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const items = () => [...(box.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointer = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!open) return;
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const move = (i: number) => all[(i + all.length) % all.length]?.focus();
    if (e.key === 'Escape') close();
    else if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(all.length - 1);
    else if (e.key === 'Tab') setOpen(false);
    else return;
    if (e.key !== 'Tab') e.preventDefault();
  };
  const choose = async (format: ExportFormat) => {
    close();
    setBusy(true);
    try {
      await onExport(format);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div ref={box} className={styles.columns} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="export-menu"
        aria-busy={busy}
        disabled={disabled || busy}
        onClick={() => setOpen((o) => !o)}
      >
        {busy ? words.busy : words.button}
      </button>
      {open && (
        <div ref={keepOnPage} id="export-menu" role="menu" aria-label={words.button} className={styles.columnMenu}>
          {ITEMS.map((item) => (
            <button
              key={item.format}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={styles.menuItem}
              onClick={() => choose(item.format)}
            >
              {words[item.key]}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
