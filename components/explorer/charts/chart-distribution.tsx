'use client';

import { memo } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import type { Histogram, HistogramBin } from '@/lib/explorer/aggregate';
import { formatBins, withBin, type BinDrill } from '@/lib/explorer/drill';
import { axisTitle, describeBin, formatTick, formatValue, METRIC_INFO, targetKind } from '@/lib/explorer/metrics';
import type { DrillTo } from '../analysis/analysis';
import { AXIS, ChartFrame, TOOLTIP } from './chart-frame';
import { useSpeech } from '../shared/use-speech';
import styles from '../view/explorer.module.css';
import { FitWidth } from '../table/fit-width';

type Props = {
  data: Histogram;
  /** The bins drilled into now (all metrics): a click replaces this metric's bin and keeps the others. */
  bins: readonly BinDrill[];
  /** The one target every batch shares, when they do (a line at it); otherwise only the colours tell. */
  sharedTarget: number | null;
  /** Some batch has a target (threshold) for the metric: bins are split into those missing it and the rest. */
  judged: boolean;
  drill: DrillTo;
  incomplete: boolean;
  /** Said instead of the chart when the filters leave no batch. */
  noMatch: string | null;
};

/** Tick values on bin edges: every k-th edge, about eight of them. */
function edgeTicks(bins: readonly HistogramBin[]): number[] {
  if (bins.length === 0) return [];
  const edges = [bins[0]!.lo, ...bins.map((b) => b.hi)];
  const step = Math.max(1, Math.ceil(edges.length / 9));
  // Ticks on multiples of step × width, so they read as round numbers.
  return edges.filter((_, i) => i % step === 0);
}

function Distribution({ data, bins, sharedTarget, judged: anyTarget, drill, incomplete, noMatch }: Props) {
  const { metric } = data;
  const say = useSpeech();
  const { f, t } = say;
  const info = METRIC_INFO[metric];
  const word = t(`targetWord.${targetKind(metric)}`);
  const value = (v: number) => formatValue(metric, v, f);
  const bin = (b: HistogramBin) => describeBin(metric, b.lo, b.hi, say);
  const chosen = bins.find((b) => b.metric === metric);
  const points = data.bins.map((b) => ({ ...b, mid: (b.lo + b.hi) / 2 }));
  const domain: [number, number] = [data.bins[0]?.lo ?? 0, data.bins[data.bins.length - 1]?.hi ?? 1];
  const open = (b: HistogramBin) => drill({ bins: formatBins(withBin(bins, { metric, lo: b.lo, hi: b.hi })) });
  const isChosen = (b: HistogramBin) => !!chosen && chosen.lo === b.lo && chosen.hi === b.hi;
  // The drilled bin outlined, in whichever bars the bins are drawn with.
  const outline = points.map((b) => (
    <Cell key={b.lo} stroke={isChosen(b) ? 'var(--fg)' : undefined} strokeWidth={isChosen(b) ? 2 : 0} />
  ));
  const judged = info.better !== null && anyTarget;
  const missLabel = t(info.better === 'lower' ? 'distribution.over' : 'distribution.under', { target: word });
  const meetLabel = t(info.better === 'lower' ? 'distribution.atOrUnder' : 'distribution.atOrAbove', { target: word });
  const metrics = t(`metrics.${metric}.plural`);
  const title = judged
    ? t(info.better === 'lower' ? 'distribution.titleOver' : 'distribution.titleUnder', { metrics, target: word })
    : t('distribution.title', { metrics });
  const table = () => (
    <table>
      <thead>
        <tr>
          <th scope="col">{t('distribution.binHeader', { metric: t(`metrics.${metric}.short`) })}</th>
          <th scope="col" className="num">
            {t('batchesHeader')}
          </th>
          {judged && (
            <th scope="col" className="num">
              {missLabel}
            </th>
          )}
          {judged && (
            <th scope="col" className="num">
              {meetLabel}
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {data.bins.map((b) => (
          <tr key={b.lo}>
            <th scope="row">
              <button type="button" className={styles.linkButton} aria-pressed={isChosen(b)} onClick={() => open(b)}>
                {bin(b)}
              </button>
            </th>
            <td className="num">{f.count(b.count)}</td>
            {judged && <td className="num">{f.count(b.misses)}</td>}
            {judged && <td className="num">{f.count(b.meets)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <ChartFrame id="chart-dist" title={title} incomplete={incomplete} table={table}>
      {data.bins.length === 0 ? (
        <p className={styles.chartEmpty}>
          {data.values === 0 && data.bins.length === 0 && noMatch
            ? noMatch
            : t('distribution.noValue', { metric: t(`metrics.${metric}.inSentence`) })}
        </p>
      ) : (
        <>
          <FitWidth height={280}>
            <BarChart data={points} margin={{ top: 18, right: 16, bottom: 18, left: 8 }} barCategoryGap={1}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" vertical={false} />
              <XAxis
                dataKey="mid"
                type="number"
                domain={domain}
                ticks={edgeTicks(data.bins)}
                tickFormatter={(v: number) => formatTick(metric, v, f)}
                allowDataOverflow
                {...AXIS}
                label={{
                  value: axisTitle(metric, say),
                  position: 'insideBottom',
                  offset: -12,
                  fill: 'var(--fg)',
                  fontSize: 12,
                }}
              />
              <YAxis
                allowDecimals={false}
                tickFormatter={(v: number) => f.count(v)}
                {...AXIS}
                width={52}
                label={{
                  value: t('batchesHeader'),
                  angle: -90,
                  position: 'insideLeft',
                  fill: 'var(--fg)',
                  fontSize: 12,
                }}
              />
              <Tooltip
                {...TOOLTIP}
                cursor={{ fill: 'var(--border)', fillOpacity: 0.5 }}
                labelFormatter={(_, payload) => {
                  const b = payload?.[0]?.payload as HistogramBin | undefined;
                  return b
                    ? t('distribution.tooltip', {
                        bin: bin(b),
                        batches: t('batches', { count: b.count, countText: f.count(b.count) }),
                      })
                    : '';
                }}
                formatter={(v, name) => [f.count(Number(v)), name]}
              />
              {sharedTarget !== null && (
                <ReferenceLine
                  x={sharedTarget}
                  stroke="var(--danger)"
                  strokeDasharray="6 3"
                  ifOverflow="extendDomain"
                  label={{
                    value: t('distribution.targetLine', {
                      target: t(`targetHeader.${targetKind(metric)}`),
                      value: value(sharedTarget),
                    }),
                    fill: 'var(--fg)',
                    position: sharedTarget <= (data.median ?? 0) ? 'insideTopRight' : 'insideTopLeft',
                    fontSize: 12,
                    dy: 16,
                  }}
                />
              )}
              {data.median !== null && (
                <ReferenceLine
                  x={data.median}
                  stroke="var(--fg)"
                  strokeWidth={1.5}
                  label={{
                    value: t('distribution.median', { value: value(data.median) }),
                    fill: 'var(--fg)',
                    position: data.median > (domain[0] + domain[1]) / 2 ? 'insideTopRight' : 'insideTopLeft',
                    fontSize: 12,
                  }}
                />
              )}
              {judged ? (
                <>
                  <Bar
                    dataKey="misses"
                    name={missLabel}
                    stackId="n"
                    fill="var(--danger)"
                    isAnimationActive={false}
                    cursor="pointer"
                    onClick={(d) => open(d.payload as HistogramBin)}
                  >
                    {outline}
                  </Bar>
                  <Bar
                    dataKey="meets"
                    name={meetLabel}
                    stackId="n"
                    fill="var(--meets)"
                    isAnimationActive={false}
                    cursor="pointer"
                    onClick={(d) => open(d.payload as HistogramBin)}
                  >
                    {outline}
                  </Bar>
                </>
              ) : (
                <Bar
                  dataKey="count"
                  name={t('batchesHeader')}
                  fill="var(--accent)"
                  isAnimationActive={false}
                  cursor="pointer"
                  onClick={(d) => open(d.payload as HistogramBin)}
                >
                  {outline}
                </Bar>
              )}
            </BarChart>
          </FitWidth>
          <p className={styles.chartNote}>
            {judged && (
              <>
                <span className={styles.swatch} style={{ background: 'var(--danger)' }} aria-hidden="true" />{' '}
                {missLabel} <span className={styles.swatch} style={{ background: 'var(--meets)' }} aria-hidden="true" />{' '}
                {meetLabel} ·{' '}
              </>
            )}
            {t('distribution.note', {
              batches: t('batches', { count: data.values, countText: f.count(data.values) }),
              width: value(data.width),
            })}
            <span className="screen-only"> {t('distribution.hint')}</span>
          </p>
        </>
      )}
    </ChartFrame>
  );
}

export default memo(Distribution);
