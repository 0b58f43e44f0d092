import { Fragment, type ReactNode } from 'react';
import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import { countChange, ppChange } from '@/lib/explorer/compare';
import type { Zone } from '@/lib/explorer/date-range';
import type { Summary } from '@/lib/explorer/rows';
import type { Speech } from '@/lib/explorer/speech';
import { MISS_KINDS } from '@/lib/explorer/targets/misses';
import { DASH, type Formats } from '@/lib/i18n/formats';
import { IncompleteNote, type Completeness } from '../range/incomplete-note';
import type { ExplorerT } from '../shared/use-explorer-words';
import { useSpeech } from '../shared/use-speech';
import type { CardComparison } from './use-comparison';
import styles from '../view/explorer.module.css';
import own from './summary-cards.module.css';

type Props = {
  summary: Summary;
  completeness: Completeness;
  zone: Zone;
  /** False while the organisation's targets are still on their way: no verdicts until they are here. */
  judged: boolean;
  problem?: ReactNode;
  /** The period of Compare with (absent: nothing compared). */
  comparison?: CardComparison;
};

const share = (v: number | null) => (v === null ? null : v * 100);
const belowText = (f: Formats, s: Summary) =>
  s.belowShare === null ? f.count(s.below) : `${f.count(s.below)} (${f.percent(s.belowShare * 100)})`;

type CardKey = 'batches' | 'germination' | 'usable' | 'below' | 'warnings';

/** The batches missing each kind of target the batches are judged by: `germination 12 · usable 23 · CV 4`. */
function belowByKind(t: ExplorerT, f: Formats, s: Summary): string[] | undefined {
  const kinds = MISS_KINDS.filter((k) => s.judgedBy[k] > 0);
  return kinds.length
    ? kinds.map((k) => t('summary.belowCount', { kind: t(`targetKinds.${k}`), count: f.count(s.belowBy[k]) }))
    : undefined;
}

/** Each card: title (its message's key), value, under it what it is made of, and (comparing) the change and the earlier value. */
function cardsOf(
  say: Speech,
  te: ExplorerT,
  s: Summary,
  judged: boolean,
  before: Summary | null,
): { key: CardKey; value: string; parts?: string[]; change?: string; was?: string }[] {
  const { f } = say;
  const changes = (...parts: (string | null)[]) => parts.filter((p) => p !== null).join(', ') || DASH;
  return [
    {
      key: 'batches',
      value: f.count(s.count),
      ...(before && { change: changes(countChange(s.count, before.count, say)), was: f.count(before.count) }),
    },
    {
      key: 'germination',
      value: f.percent(s.germination),
      ...(before && {
        change: changes(ppChange(s.germination, before.germination, say)),
        was: f.percent(before.germination),
      }),
    },
    {
      key: 'usable',
      value: f.percent(s.usable),
      ...(before && { change: changes(ppChange(s.usable, before.usable, say)), was: f.percent(before.usable) }),
    },
    {
      key: 'below',
      value: !judged ? '…' : belowText(f, s),
      parts: judged ? belowByKind(te, f, s) : undefined,
      ...(before &&
        judged && {
          change: changes(
            countChange(s.below, before.below, say),
            ppChange(share(s.belowShare), share(before.belowShare), say),
          ),
          was:
            before.belowShare === null
              ? f.count(before.below)
              : `${f.count(before.below)}, ${f.percent(before.belowShare * 100)}`,
        }),
    },
    {
      key: 'warnings',
      value: s.warningShare === null ? DASH : f.percent(s.warningShare * 100),
      ...(before && {
        change: changes(ppChange(share(s.warningShare), share(before.warningShare), say)),
        was: f.percent(share(before.warningShare)),
      }),
    },
  ];
}

/** What is compared, or why nothing is (yet). */
function ComparisonCaption({ of }: { of: CardComparison }) {
  const t = useTranslations('explorer');
  const f = useFormats();
  if (of.kind === 'unavailable') return <p className={own.caption}>{of.reason}</p>;
  if (of.summary) return <p className={own.caption}>{t('summary.comparing', { period: of.label })}</p>;
  const count = f.count(of.loaded);
  return (
    <p className={own.caption}>
      <strong className={styles.incompleteTag}>{t('incompleteTag')}</strong>{' '}
      {of.stopped
        ? t('summary.comparisonStopped', { period: of.label, count })
        : t('summary.comparisonLoading', { period: of.label, count })}
      {of.stopped && (
        <>
          {' '}
          <button type="button" className="button" onClick={of.onRetry}>
            {t('summary.retryComparison')}
          </button>
        </>
      )}
    </p>
  );
}

/**
 * Count, weighted means, batches missing their crop's targets (with the count per kind of target) and warning
 * share of the rows the table shows.
 * Comparing, each card's `dd` ends with a `<small>`: the change (`+1.2 pp`, `−3.4 %`), then the earlier value
 * (`was 90.1%`); a caption under the cards names the period compared with.
 */
export function SummaryCards({ summary, completeness, zone, judged, problem, comparison }: Props) {
  const t = useTranslations('explorer.summary');
  const te = useTranslations('explorer');
  const say = useSpeech();
  const before = comparison?.kind === 'window' ? comparison.summary : null;
  return (
    <section aria-label={t('label')} className={styles.summaryBox}>
      <IncompleteNote of={completeness} zone={zone} what="The summary">
        {problem}
      </IncompleteNote>
      <dl className={styles.summary}>
        {cardsOf(say, te, summary, judged, before).map(({ key, value, parts, change, was }) => (
          <div key={key} className={styles.card}>
            <dt>{t(key)}</dt>
            <dd>
              {value}
              {parts !== undefined && (
                <span className={own.parts}>
                  {parts.map((part, i) => (
                    <Fragment key={part}>
                      {i > 0 && ' · '}
                      <span className={own.part}>{part}</span>
                    </Fragment>
                  ))}
                </span>
              )}
              {change !== undefined && (
                <small className={own.change}>
                  {change} <span className={own.was}>{t('was', { value: was ?? DASH })}</span>
                </small>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {comparison && <ComparisonCaption of={comparison} />}
    </section>
  );
}
