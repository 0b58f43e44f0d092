'use client';

import { cropName } from '@/lib/explorer/drill';
import { BELOW, GERMINATION_WIDTH, MIXED, OVER, type Scatter } from '@/lib/explorer/uniformity/scatter';
import { useSpeech } from '../../shared/use-speech';
import { glyphPaint, glyphPath } from './glyphs';
import own from '../uniformity.module.css';

/** A glyph as the plot draws it, in the page's foreground colour. */
function Glyph({ verdict }: { verdict: number }) {
  const paint = glyphPaint(verdict, 'var(--fg)', 'var(--card)');
  return (
    <svg width="14" height="14" viewBox="0 0 10 10" aria-hidden="true">
      <path d={glyphPath(verdict, 5, 5)} fill={paint.fill} stroke={paint.stroke} strokeWidth={paint.width} />
    </svg>
  );
}

/** Each verdict's words, without and with a CV threshold in force for some batch. */
const VERDICT_KEYS = [
  ['uniformity.glyphMeets', 'uniformity.glyphMeetsWithin'],
  ['uniformity.glyphBelow', 'uniformity.glyphBelowWithin'],
  ['uniformity.glyphOver', 'uniformity.glyphOver'],
  ['uniformity.glyphBoth', 'uniformity.glyphBoth'],
] as const;

/**
 * Exactly what the plot draws: the crops in their colours, and either the glyphs of the verdicts that occur
 * among the points, or what a cell's colour and shade mean.
 */
export function UniformityLegend({
  scatter,
  crops,
  colours,
}: {
  scatter: Scatter;
  crops: readonly string[];
  colours: ReadonlyMap<string, string>;
}) {
  const { f, t } = useSpeech();
  const mixed = scatter.cells.some((c) => c.crop === MIXED);
  return (
    <ul className={own.legend} aria-label={t('uniformity.legend')}>
      {crops.map((c) => (
        <li key={c}>
          <span
            className={`${own.swatch} ${scatter.kind === 'cells' ? own.square : ''}`}
            style={{ background: colours.get(c) }}
            aria-hidden="true"
          />
          {cropName(c, t)}
        </li>
      ))}
      {scatter.kind === 'points' ? (
        [0, BELOW, OVER, BELOW | OVER]
          .filter((v) => scatter.verdicts & (1 << v))
          .map((v) => (
            <li key={`v${v}`} data-glyph={v}>
              <Glyph verdict={v} />
              {t(VERDICT_KEYS[v]![scatter.thresholds ? 1 : 0])}
            </li>
          ))
      ) : (
        <li>
          {mixed && <span className={`${own.swatch} ${own.square} ${own.hatch}`} aria-hidden="true" />}
          {t('uniformity.cellLegend', {
            germination: f.percentUpTo(GERMINATION_WIDTH),
            cv: f.percentUpTo(scatter.cvWidth),
            mixed: mixed ? 'yes' : 'no',
          })}
        </li>
      )}
    </ul>
  );
}
