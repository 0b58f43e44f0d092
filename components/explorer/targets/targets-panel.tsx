'use client';

import { useMemo, useState } from 'react';
import { useTranslations } from 'use-intl';
import { RoleGate } from '@/components/auth/role-gate';
import { TargetsHistory } from '@/components/history/targets-history';
import { useFormats } from '@/components/i18n/use-formats';
import type { Zone } from '@/lib/explorer/date-range';
import { TARGET_METRICS, type TargetMetric, type TargetPair } from '@/lib/contract';
import { NO_CROP } from '@/lib/explorer/rows';
import { legalMinimum, withLegalMinimums } from '@/lib/explorer/legal-minimums';
import { TargetInput } from '../fields/target-input';
import { TargetsConflict } from './targets-conflict';
import { useFailureText } from '../shared/use-failure-text';
import type { useTargets } from './use-targets';
import styles from './targets-panel.module.css';

type Props = {
  /** Crops seen in the loaded batches (`(none)` for batches without a crop, judged by the general targets). */
  crops: readonly string[];
  zone: Zone;
  t: ReturnType<typeof useTargets>;
  onClose: () => void;
};

/**
 * The organisation's QA targets: general germination and usable targets and a CV threshold, and the same per
 * crop, an empty crop field falling back to the general one. Edits apply at once (and travel in the link) and become everyone's when saved.
 */
export function TargetsPanel({ crops, zone, t, onClose }: Props) {
  const say = useTranslations('explorer.targets');
  const history = useTranslations('people.targetsHistory');
  const [showHistory, setShowHistory] = useState(false);
  const f = useFormats();
  const failureText = useFailureText();
  const pct = (v: number | null) => (v === null ? say('none') : f.percentUpTo(v));
  const { targets, saved } = t;
  const [presetNote, setPresetNote] = useState<string | null>(null);
  // Crops of the data first, then crops with saved targets that this range does not show.
  const rows = useMemo(() => {
    const seen = crops.filter((c) => c !== NO_CROP);
    const others = Object.keys(targets.crops)
      .filter((c) => !seen.includes(c))
      .sort((a, b) => a.localeCompare(b));
    return [...seen.map((c) => ({ crop: c, inRange: true })), ...others.map((c) => ({ crop: c, inRange: false }))];
  }, [crops, targets.crops]);

  const setGeneral = (metric: TargetMetric, value: number | null) =>
    t.change((now) => ({ ...now, general: { ...now.general, [metric]: value } }));
  const setCrop = (crop: string, metric: TargetMetric, value: number | null) =>
    t.change((now) => {
      const pair: TargetPair = { germination: null, usable: null, cv: null, ...now.crops[crop], [metric]: value };
      return { ...now, crops: { ...now.crops, [crop]: pair } };
    });
  const applyLegal = () => {
    const result = withLegalMinimums(
      targets,
      rows.map((r) => r.crop),
    );
    t.change(() => result.targets);
    const values = {
      n: result.applied.length,
      count: f.count(result.applied.length),
      crops: result.unlisted.join(', '),
    };
    const note =
      result.unlisted.length === 0
        ? 'presetAll'
        : result.unlisted.length === 1
          ? 'presetOneUnlisted'
          : 'presetUnlisted';
    setPresetNote(say(note, values));
  };

  return (
    <section className={styles.panel} aria-labelledby="targets-title">
      <div className={styles.head}>
        <h2 id="targets-title" tabIndex={-1}>
          {say('title')}
        </h2>
        <p className={styles.changed}>
          {saved === null
            ? t.loadError
              ? say('loadFailed', { detail: failureText(t.loadError) })
              : say('loading')
            : saved.updatedAt && saved.updatedBy
              ? history('lastChangedBy', {
                  name: saved.updatedBy.name || saved.updatedBy.email,
                  when: f.dateTime(Date.parse(saved.updatedAt), zone),
                })
              : saved.updatedAt
                ? say('savedAt', { when: f.dateTime(Date.parse(saved.updatedAt), zone) })
                : say('neverSaved')}
        </p>
        <button type="button" className="button" onClick={onClose}>
          {say('close')}
        </button>
      </div>
      <p className={styles.help}>{say.rich('help', { strong: (chunks) => <strong>{chunks}</strong> })}</p>
      <table className={styles.grid}>
        <thead>
          <tr>
            <th scope="col">{say('crop')}</th>
            <th scope="col">{say('germinationHead')}</th>
            <th scope="col">{say('usableHead')}</th>
            <th scope="col">{say('cvHead')}</th>
            <th scope="col">{say('legalHead')}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{say('general')}</th>
            {TARGET_METRICS.map((metric) => (
              <td key={metric}>
                <TargetInput
                  label={say(`generalInput.${metric}`)}
                  value={targets.general[metric]}
                  fallback={say('none')}
                  onChange={(v) => setGeneral(metric, v)}
                />
              </td>
            ))}
            <td />
          </tr>
          {rows.map(({ crop, inRange }) => {
            const legal = legalMinimum(crop);
            return (
              <tr key={crop}>
                <th scope="row">
                  {crop}
                  {!inRange && <span className={styles.note}> {say('notInRange')}</span>}
                </th>
                {TARGET_METRICS.map((metric) => (
                  <td key={metric}>
                    <TargetInput
                      label={say(`cropInput.${metric}`, { crop })}
                      value={targets.crops[crop]?.[metric] ?? null}
                      fallback={say('fallbackGeneral', { value: pct(targets.general[metric]) })}
                      onChange={(v) => setCrop(crop, metric, v)}
                    />
                  </td>
                ))}
                <td className={styles.note}>{legal ? pct(legal.germination) : say('nonePublished')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className={styles.actions}>
        <button type="button" className="button" onClick={applyLegal}>
          {say('useLegal')}
        </button>
        <RoleGate action="saveTargets">
          {(gate) => (
            <button
              type="button"
              className="button"
              disabled={!gate && (!t.unsaved || t.save.isPending)}
              onClick={t.saveDraft}
              {...gate}
            >
              {t.save.isPending ? say('saving') : say('save')}
            </button>
          )}
        </RoleGate>
        <button type="button" className="button" disabled={!t.unsaved} onClick={t.discard}>
          {say('discard')}
        </button>
        <span aria-live="polite" className={styles.state}>
          {t.save.isError ? '' : t.unsaved ? say('unsaved') : saved ? say('saved') : ''}
        </span>
      </div>
      {t.conflict ? (
        <TargetsConflict conflict={t.conflict} zone={zone} />
      ) : (
        t.save.isError && (
          <div role="alert" className={styles.problemBox}>
            <p>{say('saveFailed', { detail: failureText(t.save.error) })}</p>
          </div>
        )
      )}
      <div>
        <button
          type="button"
          className="button"
          aria-expanded={showHistory}
          aria-controls="targets-history"
          onClick={() => setShowHistory((v) => !v)}
        >
          {showHistory ? history('hideHistory') : history('history')}
        </button>
      </div>
      {showHistory && (
        <div id="targets-history">
          <TargetsHistory zone={zone} onRestored={t.reload} />
        </div>
      )}
      <p className={styles.source}>
        {presetNote && <>{presetNote} </>}
        {say('source')}
      </p>
    </section>
  );
}
