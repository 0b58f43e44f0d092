'use client';

import { memo, useState } from 'react';
import type { CropHistogram, HistogramBin } from '@/lib/explorer/aggregate';
import { cropName, formatBins, withBin, type BinDrill } from '@/lib/explorer/drill';
import { axisTitle, describeBin, formatTick, formatValue, niceAxis } from '@/lib/explorer/metrics';
import type { DrillTo } from '../analysis/analysis';
import { ChartFrame } from './chart-frame';
import { edgeAnchor } from '../range/time-panel';
import { useSpeech } from '../shared/use-speech';
import styles from '../view/explorer.module.css';

type Props = {
  crops: readonly CropHistogram[];
  /** The bins drilled into now: a click replaces this metric's bin, keeps the others and picks the crop. */
  bins: readonly BinDrill[];
  colours: ReadonlyMap<string, string>;
  /** The crop filter in force: its panel is marked. */
  picked: string | undefined;
  drill: DrillTo;
  incomplete: boolean;
  /** Said instead of the panels when the filters leave no batch. */
  noMatch: string | null;
};

const W = 300,
  H = 130,
  L = 30,
  R = 8,
  T = 16,
  B = 20;

/** One crop's histogram on its own axis: bars, the median, a readout on hover; a click drills into the crop's bin. */
function Panel({
  h,
  colour,
  chosen,
  onPick,
  picked,
}: {
  h: CropHistogram;
  colour: string;
  chosen: BinDrill | undefined;
  onPick: (b: HistogramBin) => void;
  picked: boolean;
}) {
  const say = useSpeech();
  const { f, t } = say;
  const [hover, setHover] = useState<number | null>(null);
  const x0 = h.bins[0]!.lo,
    x1 = h.bins[h.bins.length - 1]!.hi;
  const most = Math.max(1, ...h.bins.map((b) => b.count));
  const y = niceAxis(0, most, 2, 0);
  const sx = (v: number) => L + ((v - x0) / (x1 - x0 || 1)) * (W - L - R);
  const sy = (n: number) => T + (1 - n / y.domain[1]) * (H - T - B);
  const xTicks = niceAxis(x0, x1, 3).ticks.filter((v) => v >= x0 && v <= x1);
  const name = cropName(h.crop, t);
  const shown = hover === null ? null : h.bins[hover]!;
  const isChosen = (b: HistogramBin) => !!chosen && chosen.lo === b.lo && chosen.hi === b.hi;
  const median = h.median === null ? '—' : formatValue(h.metric, h.median, f, 0);
  return (
    <div className={styles.panel} data-crop={h.crop}>
      <h4 title={name} style={picked ? { textDecoration: 'underline' } : undefined}>
        <span className={styles.swatch} style={{ background: colour }} aria-hidden="true" />
        {name}
        <span className={styles.panelMeta}>
          {h.values === h.count
            ? t('sizes.panelMeta', { batches: t('batches', { count: h.values, countText: f.count(h.values) }), median })
            : t('sizes.panelMetaSome', {
                values: f.count(h.values),
                batches: t('batches', { count: h.count, countText: f.count(h.count) }),
                median,
              })}
        </span>
      </h4>
      <div className={styles.timePanel}>
        <svg
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-label={t('sizes.panelLabel', { crop: name })}
          onPointerLeave={() => setHover(null)}
        >
          {y.ticks.map((v) => (
            <g key={v}>
              <line x1={L} x2={W - R} y1={sy(v)} y2={sy(v)} stroke="var(--border)" strokeDasharray="3 3" />
              <text x={L - 4} y={sy(v)} dy={3.5} textAnchor="end" fontSize={10} fill="var(--fg)">
                {f.count(v)}
              </text>
            </g>
          ))}
          {xTicks.map((v) => (
            <text
              key={v}
              x={sx(v)}
              y={H - 6}
              textAnchor={edgeAnchor(sx(v), formatTick(h.metric, v, f), 0, W)}
              fontSize={10}
              fill="var(--fg)"
            >
              {formatTick(h.metric, v, f)}
            </text>
          ))}
          <line x1={L} x2={W - R} y1={H - B} y2={H - B} stroke="var(--muted)" />
          {h.bins.map((b, i) => (
            <rect
              key={b.lo}
              data-bin={`${b.lo}:${b.hi}`}
              x={sx(b.lo) + 0.5}
              y={sy(b.count)}
              width={Math.max(sx(b.hi) - sx(b.lo) - 1, 1)}
              height={H - B - sy(b.count)}
              fill={colour}
              fillOpacity={hover === i ? 1 : 0.8}
              stroke={isChosen(b) ? 'var(--fg)' : 'none'}
              strokeWidth={2}
              style={{ cursor: 'pointer' }}
              onPointerEnter={() => setHover(i)}
              onClick={() => onPick(b)}
            />
          ))}
          {h.median !== null && (
            <g pointerEvents="none">
              <line x1={sx(h.median)} x2={sx(h.median)} y1={T - 4} y2={H - B} stroke="var(--fg)" strokeWidth={1.5} />
              <text
                x={sx(h.median)}
                y={T - 6}
                textAnchor={sx(h.median) > W * 0.7 ? 'end' : 'start'}
                dx={sx(h.median) > W * 0.7 ? -3 : 3}
                fontSize={10}
                fill="var(--fg)"
              >
                {t('distribution.median', { value: formatValue(h.metric, h.median, f, 0) })}
              </text>
            </g>
          )}
        </svg>
        {shown && (
          <p className={styles.timeReadout} aria-hidden="true">
            {t('distribution.tooltip', {
              bin: describeBin(h.metric, shown.lo, shown.hi, say),
              batches: t('batches', { count: shown.count, countText: f.count(shown.count) }),
            })}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * The distribution of a metric crops cannot share an axis for (median seedling size): a small histogram per
 * crop, each on its own bins and axis, most batches first; a click on a bar shows that crop's batches in it.
 */
function SizeDistributions({ crops, bins, colours, picked, drill, incomplete, noMatch }: Props) {
  const say = useSpeech();
  const { f, t } = say;
  const metric = crops[0]?.metric ?? 'size';
  const chosen = bins.find((b) => b.metric === metric);
  const open = (crop: string, b: HistogramBin) =>
    drill({ crop, bins: formatBins(withBin(bins, { metric, lo: b.lo, hi: b.hi })) });
  const shown = crops.filter((c) => c.bins.length > 0);
  const title = t('sizes.title', { metrics: t(`metrics.${metric}.plural`) });
  const table = () => (
    <table>
      <thead>
        <tr>
          <th scope="col">{t('sizes.binHeader', { metric: t(`metrics.${metric}.short`) })}</th>
          <th scope="col" className="num">
            {t('batchesHeader')}
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.flatMap((c) =>
          c.bins.map((b) => (
            <tr key={`${c.crop}-${b.lo}`}>
              <th scope="row">
                <button
                  type="button"
                  className={styles.linkButton}
                  aria-pressed={picked === c.crop && chosen?.lo === b.lo && chosen?.hi === b.hi}
                  onClick={() => open(c.crop, b)}
                >
                  {t('sizes.row', { crop: cropName(c.crop, t), bin: describeBin(metric, b.lo, b.hi, say) })}
                </button>
              </th>
              <td className="num">{f.count(b.count)}</td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
  return (
    <ChartFrame id="chart-dist" title={title} incomplete={incomplete} table={table} wide>
      {shown.length === 0 ? (
        <p className={styles.chartEmpty}>
          {crops.length === 0 && noMatch
            ? noMatch
            : t('distribution.noValue', { metric: t(`metrics.${metric}.inSentence`) })}
        </p>
      ) : (
        <>
          <div className={styles.panels}>
            {shown.map((c) => (
              <Panel
                key={c.crop}
                h={c}
                colour={colours.get(c.crop) ?? 'var(--fg)'}
                chosen={picked === c.crop ? chosen : undefined}
                picked={picked === c.crop}
                onPick={(b) => open(c.crop, b)}
              />
            ))}
          </div>
          <p className={styles.chartNote}>{t('sizes.note', { axis: axisTitle(metric, say) })}</p>
        </>
      )}
    </ChartFrame>
  );
}

export default memo(SizeDistributions);
