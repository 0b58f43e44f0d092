import type { createTranslator } from 'use-intl/core';
import type { Targets } from '../../contract/targets';
import type { Formats } from '../../i18n/formats';
import type { Messages } from '../../i18n/messages';
import { NO_CROP } from '../rows';
import { cropsToList, effectiveTargets, type EffectiveTarget } from './effective-targets';

/** The printed report's messages (`useTranslations('print')` in a component). */
export type PrintT = ReturnType<typeof createTranslator<Messages, 'print'>>;

/**
 * The targets in force, for the print header and the export's View sheet: a line for the general ones, then each
 * crop's (`crops`: the batches' crops; those with targets of their own are added) with where each comes from,
 * crops judged alike on one line: `Tomato: germination 85.0% (own), usable seedlings 85.0% (general), CV
 * threshold 30.0% (general)`.
 */
export function targetLines(targets: Targets, crops: readonly string[], t: PrintT, f: Formats): string[] {
  const pct = (v: number | null) => (v === null ? t('none') : f.percent(v));
  const said = ({ value, source }: EffectiveTarget) =>
    source === 'own'
      ? t('own', { value: pct(value) })
      : source === 'general'
        ? t('fromGeneral', { value: pct(value) })
        : pct(value);
  const general = targets.general;
  const lines = [
    `${t('general')}: ${t('targetPair', { germination: pct(general.germination), usable: pct(general.usable), cv: pct(general.cv) })}`,
  ];
  const byText = new Map<string, string[]>();
  for (const crop of cropsToList(targets, crops, NO_CROP)) {
    const e = effectiveTargets(targets, crop);
    const text = t('targetPair', { germination: said(e.germination), usable: said(e.usable), cv: said(e.cv) });
    byText.set(text, [...(byText.get(text) ?? []), crop]);
  }
  for (const [text, alike] of byText) lines.push(`${alike.join(', ')}: ${text}`);
  return lines;
}
