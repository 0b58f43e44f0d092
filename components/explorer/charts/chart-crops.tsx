'use client';

import { memo } from 'react';
import { CartesianGrid, Cell, ComposedChart, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import { AGGREGATE_KIND, type CropFigure } from '@/lib/explorer/aggregate';
import { cropName } from '@/lib/explorer/drill';
import {
  axisTitle,
  formatJudged,
  formatTick,
  formatValue,
  METRIC_INFO,
  missesTarget,
  niceAxis,
  targetKind,
  type Metric,
} from '@/lib/explorer/metrics';
import type { DrillTo } from '../analysis/analysis';
import { AXIS, ChartFrame, TOOLTIP } from './chart-frame';
import { useSpeech } from '../shared/use-speech';
import styles from '../view/explorer.module.css';
import { FitWidth } from '../table/fit-width';

type Props = {
  crops: readonly CropFigure[];
  metric: Metric;
  colours: ReadonlyMap<string, string>;
  /** The crop filter in force (the chart still shows every crop, this one marked). */
  picked: string | undefined;
  drill: DrillTo;
  incomplete: boolean;
  /** Said instead of the chart when the filters leave no batch. */
  noMatch: string | null;
};

const MAX_LABEL = 22;
const short = (s: string) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s);

/** An axis zoomed to the values and targets (the differences that matter are a few points wide), never past the scale. */
function zoom(crops: readonly CropFigure[], rate: boolean) {
  const xs = crops.flatMap((c) => [c.value, c.target]).filter((v): v is number => v !== null);
  if (xs.length === 0) return niceAxis(0, rate ? 100 : 1);
  const lo = Math.min(...xs),
    hi = Math.max(...xs);
  const pad = Math.max((hi - lo) * 0.05, 0.5);
  return niceAxis(lo - pad, hi + pad, 5, 0, rate ? 100 : Infinity);
}

/** A target: a short vertical stroke across the crop's row. */
function TargetMark(props: { cx?: number; cy?: number }) {
  if (props.cx === undefined || props.cy === undefined) return <g />;
  return (
    <line x1={props.cx} x2={props.cx} y1={props.cy - 9} y2={props.cy + 9} stroke="var(--danger)" strokeWidth={2.5} />
  );
}

/**
 * The metric per crop as a dot plot: one row per crop (most batches first) with its batch count, a dot at its
 * value in the crop's colour and a stroke at its target, on an axis zoomed to the data. A dot, not a bar: a bar
 * from a zoomed axis would exaggerate differences by its length.
 */
function CropsCompared({ crops, metric, colours, picked, drill, incomplete, noMatch }: Props) {
  const say = useSpeech();
  const { f, t } = say;
  const info = METRIC_INFO[metric];
  const word = t(`targetWord.${targetKind(metric)}`);
  const header = t(`targetHeader.${targetKind(metric)}`);
  const aggregate = t(`aggregate.${AGGREGATE_KIND[metric]}`);
  const name = (crop: string) => cropName(crop, t);
  const value = (v: number) => formatValue(metric, v, f);
  const data = crops.map((c) => ({
    ...c,
    label: t('crops.axisLabel', { crop: short(name(c.crop)), count: f.count(c.count) }),
  }));
  const axis = zoom(crops, info.rate);
  const open = (crop: string) => drill({ crop });
  // A metric without targets (size) marks none and says none.
  const judged = info.better !== null;
  const title = t(judged ? 'crops.title' : 'crops.titleNoTarget', {
    metric: t(`metrics.${metric}.label`),
    aggregate,
    target: word,
  });
  const table = () => (
    <table>
      <thead>
        <tr>
          <th scope="col">{t('cropHeader')}</th>
          <th scope="col" className="num">
            {t('overTime.valueHeader', { metric: t(`metrics.${metric}.short`), aggregate })}
          </th>
          <th scope="col" className="num">
            {t('batchesHeader')}
          </th>
          {judged && (
            <th scope="col" className="num">
              {header}
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {crops.map((c) => (
          <tr key={c.crop}>
            <th scope="row">
              <button
                type="button"
                className={styles.linkButton}
                aria-pressed={picked === c.crop}
                onClick={() => open(c.crop)}
              >
                {name(c.crop)}
              </button>
            </th>
            <td className="num">{c.value === null ? '—' : formatJudged(metric, c.value, c.target, f)}</td>
            <td className="num">{f.count(c.count)}</td>
            {judged && <td className="num">{c.target === null ? '—' : value(c.target)}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
  const height = Math.max(120, data.length * 30 + 50);
  if (crops.length === 0) {
    return (
      <ChartFrame id="chart-crops" title={title} incomplete={incomplete} table={table}>
        <p className={styles.chartEmpty}>
          {noMatch ?? t('distribution.noValue', { metric: t(`metrics.${metric}.inSentence`) })}
        </p>
      </ChartFrame>
    );
  }
  return (
    <ChartFrame id="chart-crops" title={title} incomplete={incomplete} table={table}>
      <FitWidth height={height}>
        <ComposedChart data={data} layout="vertical" margin={{ top: 16, right: 20, bottom: 18, left: 4 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" horizontal={false} />
          <XAxis
            type="number"
            domain={axis.domain}
            ticks={axis.ticks}
            tickFormatter={(v: number) => formatTick(metric, v, f)}
            {...AXIS}
            allowDataOverflow
            label={{
              value: axisTitle(metric, say),
              position: 'insideBottom',
              offset: -12,
              fill: 'var(--fg)',
              fontSize: 12,
            }}
          />
          <YAxis
            type="category"
            dataKey="label"
            width={190}
            interval={0}
            {...AXIS}
            tick={(props: { x?: number | string; y?: number | string; payload?: { value: string; index: number } }) => {
              const c = crops[props.payload?.index ?? -1];
              const on = c !== undefined && c.crop === picked;
              return (
                <text
                  x={props.x}
                  y={props.y}
                  dy={4}
                  textAnchor="end"
                  fill="var(--fg)"
                  fontSize={12}
                  fontWeight={on ? 700 : 400}
                  style={{ cursor: 'pointer' }}
                  onClick={() => c && open(c.crop)}
                >
                  {c ? <title>{name(c.crop)}</title> : null}
                  {props.payload?.value}
                </text>
              );
            }}
          />
          <Tooltip
            {...TOOLTIP}
            cursor={{ fill: 'var(--border)', fillOpacity: 0.4 }}
            labelFormatter={(_, payload) => {
              const c = payload?.[0]?.payload as CropFigure | undefined;
              return c
                ? t('crops.tooltip', {
                    crop: name(c.crop),
                    batches: t('batches', { count: c.count, countText: f.count(c.count) }),
                  })
                : '';
            }}
            formatter={(v, series, item) => [
              typeof v === 'number'
                ? series === header
                  ? value(v)
                  : formatJudged(metric, v, (item.payload as CropFigure).target, f)
                : '—',
              series,
            ]}
          />
          {judged && <Scatter dataKey="target" name={header} shape={<TargetMark />} isAnimationActive={false} />}
          <Scatter
            dataKey="value"
            name={t(`metrics.${metric}.short`)}
            isAnimationActive={false}
            cursor="pointer"
            onClick={(d) => open((d as unknown as { payload: CropFigure }).payload.crop)}
            shape={(props: { cx?: number; cy?: number; payload?: CropFigure }) => {
              const c = props.payload;
              if (!c || props.cx === undefined || props.cy === undefined || c.value === null) return <g />;
              const colour = colours.get(c.crop) ?? 'var(--fg)';
              const miss = missesTarget(metric, c.value, c.target);
              return (
                <g>
                  {c.crop === picked && (
                    <circle cx={props.cx} cy={props.cy} r={10} fill="none" stroke="var(--fg)" strokeWidth={1.5} />
                  )}
                  {/* Missing its target: a hollow dot, so it does not rest on colour alone. */}
                  <circle
                    cx={props.cx}
                    cy={props.cy}
                    r={6}
                    fill={miss ? 'var(--card)' : colour}
                    stroke={colour}
                    strokeWidth={2.5}
                  />
                </g>
              );
            }}
          >
            {data.map((c) => (
              <Cell key={c.crop} />
            ))}
          </Scatter>
        </ComposedChart>
      </FitWidth>
      <p className={styles.chartNote}>
        {judged && t('crops.note', { target: word })}
        <span className="screen-only"> {t('crops.hint')}</span>
      </p>
    </ChartFrame>
  );
}

export default memo(CropsCompared);
