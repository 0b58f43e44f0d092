import 'server-only';
import { MAX_LISTED_BATCHES, type AlertSignal } from '../../contract/alerts';
import { TARGET_METRICS, type TargetMetric, type Targets } from '../../contract/targets';
import { rowsByCrop } from '../../explorer/aggregate';
import { compareCreation, filterRows, NO_CROP, type Row } from '../../explorer/rows';
import { controlChart, type SpcPoint } from '../../explorer/spc';
import { verdict } from '../../explorer/verdict';
import type { StoredRule } from './alerts-store';
import type { FiredBatch, Finding } from './message';

/**
 * What a rule finds in the batches a check loaded, by the page's own rules: the Below target filter
 * (lib/explorer/targets/misses.ts through filterRows), Search's words, the crop filter, the control charts
 * (lib/explorer/spc.ts, with the chart's default baseline over the same window the link opens) and, for a
 * silence, the newest batch of each crop or scanner. Each finding comes with the keys that make it once-only:
 * a key the rule reported before is never reported again.
 */

const DAY_MS = 86_400_000;
/** The control charts a check judges cover this many days up to now, as the link to them (`from=now-90d`) does. */
export const CONTROL_WINDOW_DAYS = 90;
/** A silence is looked for over the rule's days and this many before them (a crop last seen earlier is not watched). */
export const SILENT_LOOKBACK_DAYS = 60;

/** One finding to send if any of its keys is new; `make` builds it of the new keys alone. */
export type Draft = {
  keys: string[];
  make(fresh: ReadonlySet<string>): { finding: Finding; batchIds: string[]; viewQuery: URLSearchParams } | null;
};

/** How far back a rule needs batches, from `now` (ms); null: only those since the watermark. */
export function lookbackOf(rule: StoredRule, now: number): number | null {
  if (rule.when === 'control-signal') return now - CONTROL_WINDOW_DAYS * DAY_MS;
  if (rule.when === 'silent') return now - ((rule.silentDays ?? 1) + SILENT_LOOKBACK_DAYS) * DAY_MS;
  return null;
}

/**
 * The rule's findings in `rows` (every batch loaded for the organisation, in any order): of the batches created
 * since `since` (ms: the watermark less the overlap) and after the rule; a silence whenever it holds.
 */
export function evaluate(
  rule: StoredRule,
  rows: readonly Row[],
  targets: Targets,
  now: number,
  since = -Infinity,
): Draft[] {
  const after = Math.max(rule.createdAt.getTime(), since - 1);
  switch (rule.when) {
    case 'misses-target':
    case 'warnings':
      return batchDrafts(rule, rows, targets, after);
    case 'control-signal':
      return signalDrafts(rule, rows, targets, now, after);
    case 'silent':
      return silentDrafts(rule, rows, now);
  }
}

/** The rows the rule's crop and search text leave, as the explorer's filter does. */
function narrowed(
  rule: StoredRule,
  rows: readonly Row[],
  targets: Targets,
  extra: { warn?: '1'; below?: '1' | TargetMetric } = {},
): readonly Row[] {
  return filterRows(rows, { q: rule.search ?? '', crop: rule.crop ?? undefined, targets, ...extra });
}

/** Each target the batch is judged by (its crop's, or the general one): its figure, and whether it misses. */
export function firedBatch(row: Row, targets: Targets): FiredBatch {
  const verdicts = TARGET_METRICS.map((metric) => verdict(row, targets, metric))
    .filter((v) => v.kind === 'misses' || v.kind === 'meets')
    .map((v) => ({ metric: v.metric, target: v.target!, value: v.value!, misses: v.misses, crop: v.crop }));
  return { batch: row.batch, verdicts };
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The explorer's query narrowed as the rule is (the view the message links to). */
function baseQuery(rule: StoredRule, from: string): URLSearchParams {
  const query = new URLSearchParams({ from, to: 'now', tz: 'UTC' });
  if (rule.search) query.set('q', rule.search);
  if (rule.crop) query.set('crop', rule.crop);
  return query;
}

function batchDrafts(rule: StoredRule, rows: readonly Row[], targets: Targets, after: number): Draft[] {
  const below =
    rule.when === 'misses-target' ? (rule.target === 'any' || rule.target === null ? '1' : rule.target) : undefined;
  const hits = narrowed(rule, rows, targets, rule.when === 'warnings' ? { warn: '1' } : { below })
    .filter((r) => r.time > after)
    .slice()
    .sort(compareCreation);
  if (hits.length === 0) return [];
  const keyOf = (r: Row) => `batch:${r.id}`;
  return [
    {
      keys: hits.map(keyOf),
      make(fresh) {
        const found = hits.filter((r) => fresh.has(keyOf(r)));
        if (found.length === 0) return null;
        const query = baseQuery(rule, dayOf(found[0]!.time));
        if (below) query.set('below', below);
        else query.set('warn', '1');
        return {
          finding: {
            kind: 'batches',
            batches: found.slice(0, MAX_LISTED_BATCHES).map((r) => firedBatch(r, targets)),
            total: found.length,
          },
          batchIds: found.map((r) => r.id),
          viewQuery: query,
        };
      },
    },
  ];
}

/** The metrics a control-signal rule charts: its target's, or the three the targets judge. */
const chartedMetrics = (rule: StoredRule): TargetMetric[] =>
  rule.target && rule.target !== 'any' ? [rule.target] : [...TARGET_METRICS];

function signalDrafts(rule: StoredRule, rows: readonly Row[], targets: Targets, now: number, after: number): Draft[] {
  const signal: AlertSignal = rule.signal ?? 'any';
  const windowStart = now - CONTROL_WINDOW_DAYS * DAY_MS;
  const inWindow = narrowed(rule, rows, targets)
    .filter((r) => r.time >= windowStart)
    .slice()
    .sort(compareCreation);
  const drafts: Draft[] = [];
  for (const [crop, list] of rowsByCrop(inWindow)) {
    for (const metric of chartedMetrics(rule)) {
      const chart = controlChart(crop, list, metric, null, signal === 'limits' ? 'limits' : 'runs');
      if (!chart.limits) continue;
      const limits = { centre: chart.limits.centre, lcl: chart.limits.lcl, ucl: chart.limits.ucl };
      // A batch beyond the limits is told as such; one only in a run, as a run (never both: one key per batch and metric).
      const groups: Record<'limits' | 'run', SpcPoint[]> = { limits: [], run: [] };
      for (const p of chart.points) {
        if (p.row.time <= after) continue;
        if (p.beyond && signal !== 'run') groups.limits.push(p);
        else if (p.run && signal !== 'limits') groups.run.push(p);
      }
      for (const kind of ['limits', 'run'] as const) {
        const points = groups[kind];
        if (points.length === 0) continue;
        const keyOf = (p: SpcPoint) => `signal:${metric}:${p.row.id}`;
        drafts.push({
          keys: points.map(keyOf),
          make(fresh) {
            const found = points.filter((p) => fresh.has(keyOf(p)));
            if (found.length === 0) return null;
            const query = baseQuery(rule, `now-${CONTROL_WINDOW_DAYS}d`);
            query.set('metric', metric);
            query.set('spc', crop);
            if (signal !== 'limits') query.set('rules', 'runs');
            return {
              finding: {
                kind: 'control-signal',
                crop: crop === NO_CROP ? NO_CROP : crop,
                metric,
                signal: kind,
                batches: found.slice(0, MAX_LISTED_BATCHES).map((p) => firedBatch(p.row, targets)),
                total: found.length,
                limits,
              },
              batchIds: found.map((p) => p.row.id),
              viewQuery: query,
            };
          },
        });
      }
    }
  }
  return drafts;
}

function silentDrafts(rule: StoredRule, rows: readonly Row[], now: number): Draft[] {
  const days = rule.silentDays ?? 1;
  const by = rule.silentBy ?? 'crop';
  const last = new Map<string, number>();
  for (const r of rows) {
    if (rule.crop && r.crop !== rule.crop) continue;
    const who = by === 'crop' ? (r.crop ?? NO_CROP) : r.field('scanned_by_email');
    if (typeof who !== 'string' || who === '') continue;
    last.set(who, Math.max(last.get(who) ?? -Infinity, r.time));
  }
  // A rule for one crop watches it even when no batch of it is left in the window.
  if (rule.crop && by === 'crop' && !last.has(rule.crop)) last.set(rule.crop, NaN);
  const drafts: Draft[] = [];
  for (const [who, lastAt] of last) {
    const known = Number.isFinite(lastAt);
    const silentFor = known ? now - lastAt : Infinity;
    if (silentFor < days * DAY_MS) continue;
    // A silence the rule finds when made is told at once, unless it was due more than `days` before the
    // rule: a crop given up long ago is no news.
    if (known && lastAt + 2 * days * DAY_MS < rule.createdAt.getTime()) continue;
    const key = `silent:${by}:${who}:${known ? new Date(lastAt).toISOString() : 'none'}`;
    drafts.push({
      keys: [key],
      make: () => {
        const query = new URLSearchParams({ from: `now-${days + SILENT_LOOKBACK_DAYS}d`, to: 'now', tz: 'UTC' });
        if (by === 'crop') query.set('crop', who);
        else query.set('scanner', who);
        return {
          finding: {
            kind: 'silent',
            by,
            who,
            days: known ? Math.floor(silentFor / DAY_MS) : days,
            lastAt: known ? new Date(lastAt).toISOString() : null,
          },
          batchIds: [],
          viewQuery: query,
        };
      },
    });
  }
  return drafts;
}
