'use client';

import type { Targets, TargetPair } from '@/lib/contract/targets';
import { drillChips } from '@/lib/explorer/drill';
import { METRIC_INFO } from '@/lib/explorer/metrics';
import type { ExplorerState } from '@/lib/explorer/url-state';
import { describeDays } from '@/lib/explorer/drill';
import { GROUP_LABELS } from './analysis-bar';
import type { Column } from './columns';
import { fmtMadeAt } from './format';
import { fill, PRINT_STRINGS as S } from './print-strings';
import type { CardComparison } from './use-comparison';
import styles from './print-report.module.css';

type Props = {
  organisation: string;
  state: ExplorerState;
  /** The search as typed (the URL's `q` follows it a moment later). */
  search: string;
  targets: Targets;
  targetsUnsaved: boolean;
  comparison: CardComparison | undefined;
  columns: readonly Column[];
  hiddenColumns: readonly Column[];
  madeAt: number;
};

const pct = (v: number | null) => (v === null ? S.none : `${v} %`);
const pair = (p: TargetPair) => fill(S.targetPair, { germination: pct(p.germination), usable: pct(p.usable), cv: pct(p.cv) });

/** `4 May 2026 – 10 May 2026`, `from 4 May 2026, up to now`, or All time. */
function rangeText({ from, to }: Pick<ExplorerState, 'from' | 'to'>): string {
  if (from && to) return describeDays({ from, to });
  if (from) return `${describeDays({ from, to: from })} – ${S.upToNow}`;
  if (to) return `${S.allTime} – ${describeDays({ from: to, to })}`;
  return S.allTime;
}

/** Every filter in force, in words; empty when the report covers the whole range. */
function filterLines(state: ExplorerState, search: string, columns: readonly Column[], hidden: readonly Column[]): string[] {
  const lines: string[] = [];
  if (search.trim()) lines.push(fill(S.search, { text: search.trim() }));
  if (state.warn) lines.push(S.warningsOnly);
  if (state.below) lines.push(S.belowOnly);
  lines.push(...drillChips(state).map((c) => c.label));
  if (hidden.length) lines.push(fill(S.hiddenColumns, { columns: hidden.map((c) => c.label).join(', ') }));
  return lines.length ? lines : [S.noFilters];
}

/**
 * The report's head on paper: what it is, whose, which days in which zone, the filters, the targets every batch
 * was judged by, what it is compared with, and when it was made. The page's own controls stand for all of
 * this on screen, and are not printed.
 */
export function PrintHeader({ organisation, state, search, targets, targetsUnsaved, comparison, columns, hiddenColumns, madeAt }: Props) {
  const made = fmtMadeAt(madeAt, state.tz);
  const sortColumn = columns.find((c) => c.sort === state.sort)?.label ?? state.sort;
  const facts: [string, string | string[]][] = [
    [S.organisation, organisation],
    [S.range, rangeText(state)],
    [S.zone, state.tz],
    [S.filters, [...filterLines(state, search, columns, hiddenColumns), fill(S.sortedBy, { column: sortColumn, dir: state.dir === 'asc' ? S.ascending : S.descending })]],
    [S.targets, [`${S.general}: ${pair(targets.general)}`, ...Object.entries(targets.crops).map(([crop, p]) => `${crop}: ${pair(p)}`), ...(targetsUnsaved ? [S.targetsUnsaved] : [])]],
    [S.metric, METRIC_INFO[state.metric].label],
  ];
  if (comparison) facts.push([S.comparison, comparison.kind === 'window' ? comparison.label : comparison.reason]);
  if (state.group) facts.push([S.grouping, GROUP_LABELS.find(([g]) => g === state.group)?.[1] ?? state.group]);
  facts.push([S.made, made]);
  return (
    <header className={`print-only print-part ${styles.head}`}>
      {/* The page margins' footer (print.css) reads these words: a margin box cannot read the page's text. */}
      <style>{`:root { --print-footer: ${cssString(fill(S.footer, { organisation, made }))}; }`}</style>
      <h1 className={styles.title}>{S.title}</h1>
      <dl className={styles.facts}>
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{Array.isArray(value) ? value.map((v) => <span key={v}>{v}</span>) : value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}

/** Text as a CSS string: quoted, with quotes, backslashes and line ends escaped. */
function cssString(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&').replace(/[\r\n]+/g, ' ')}"`;
}
