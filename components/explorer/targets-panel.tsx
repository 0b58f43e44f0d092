'use client';

import { useMemo, useState } from 'react';
import type { Zone } from '@/lib/explorer/date-range';
import type { TargetMetric, TargetPair } from '@/lib/contract';
import { NO_CROP } from '@/lib/explorer/rows';
import { LEGAL_MINIMUM_SOURCE, legalMinimum, withLegalMinimums } from '@/lib/explorer/legal-minimums';
import { fmtDate } from './format';
import { TargetInput } from './target-input';
import type { useTargets } from './use-targets';
import styles from './targets-panel.module.css';

type Props = {
  /** Crops seen in the loaded batches (`(none)` for batches without a crop, judged by the general targets). */
  crops: readonly string[];
  zone: Zone;
  t: ReturnType<typeof useTargets>;
  onClose: () => void;
};

/** Each column: its field, and what its input is called (`General CV threshold (%)`, `Lettuce usable target (%)`). */
const METRICS: { metric: TargetMetric; label: string }[] = [
  { metric: 'germination', label: 'germination target' },
  { metric: 'usable', label: 'usable target' },
  { metric: 'cv', label: 'CV threshold' },
];

const pct = (v: number | null) => (v === null ? 'none' : `${v} %`);

/**
 * The organisation's QA targets: general germination and usable targets and a CV threshold, and the same per
 * crop, an empty crop field falling back to the general one. Edits apply at once (and travel in the link) and become everyone's when saved.
 */
export function TargetsPanel({ crops, zone, t, onClose }: Props) {
  const { targets, saved } = t;
  const [presetNote, setPresetNote] = useState<string | null>(null);
  // Crops of the data first, then crops with saved targets that this range does not show.
  const rows = useMemo(() => {
    const seen = crops.filter((c) => c !== NO_CROP);
    const others = Object.keys(targets.crops).filter((c) => !seen.includes(c)).sort((a, b) => a.localeCompare(b));
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
    const result = withLegalMinimums(targets, rows.map((r) => r.crop));
    t.change(() => result.targets);
    setPresetNote(
      `Set ${result.applied.length} crop${result.applied.length === 1 ? '' : 's'} to the legal minimum germination` +
        (result.unlisted.length ? `; ${result.unlisted.join(', ')} ${result.unlisted.length === 1 ? 'has' : 'have'} no published minimum and keep${result.unlisted.length === 1 ? 's' : ''} the general target.` : '.'),
    );
  };

  return (
    <section className={styles.panel} aria-labelledby="targets-title">
      <div className={styles.head}>
        <h2 id="targets-title">Targets</h2>
        <p className={styles.changed}>
          {saved === null
            ? t.loadError
              ? `The organisation's targets could not be loaded: ${t.loadError.detail} Batches are judged by the targets shown here.`
              : 'Loading the organisation’s targets…'
            : saved.updatedAt
              ? `Saved for your organisation; last changed ${fmtDate(Date.parse(saved.updatedAt), zone)}.`
              : 'Never saved for your organisation: the dashboard’s defaults.'}
        </p>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p className={styles.help}>
        Each batch is judged against its own crop’s target; an empty crop target uses the general one. Changes apply at
        once and travel in the page’s link; <strong>Save targets</strong> makes them your organisation’s for everyone.
      </p>
      <table className={styles.grid}>
        <thead>
          <tr>
            <th scope="col">Crop</th>
            <th scope="col">Germination target (%)</th>
            <th scope="col">Usable-seedling target (%)</th>
            <th scope="col">CV threshold (%): above it, too uneven</th>
            <th scope="col">Legal minimum germination</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">General (every crop without its own)</th>
            {METRICS.map(({ metric, label }) => (
              <td key={metric}>
                <TargetInput label={`General ${label} (%)`} value={targets.general[metric]} fallback="none" onChange={(v) => setGeneral(metric, v)} />
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
                  {!inRange && <span className={styles.note}> (not in this range)</span>}
                </th>
                {METRICS.map(({ metric, label }) => (
                  <td key={metric}>
                    <TargetInput
                      label={`${crop} ${label} (%)`}
                      value={targets.crops[crop]?.[metric] ?? null}
                      fallback={`${pct(targets.general[metric])} (general)`}
                      onChange={(v) => setCrop(crop, metric, v)}
                    />
                  </td>
                ))}
                <td className={styles.note}>{legal ? `${legal.germination} %` : 'none published'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className={styles.actions}>
        <button type="button" className="button" onClick={applyLegal}>
          Use legal minimums
        </button>
        <button type="button" className="button" disabled={!t.unsaved || t.save.isPending} onClick={() => t.save.mutate(targets)}>
          {t.save.isPending ? 'Saving…' : 'Save targets'}
        </button>
        <button type="button" className="button" disabled={!t.unsaved} onClick={t.discard}>
          Discard changes
        </button>
        <span aria-live="polite" className={styles.state}>
          {t.save.isError ? '' : t.unsaved ? 'Not saved: these targets apply in this view and its link only.' : saved ? 'Saved.' : ''}
        </span>
      </div>
      {t.save.isError && (
        <div role="alert" className={styles.problemBox}>
          <p>
            {t.save.error.status === 409
              ? `${t.save.error.detail} Your targets are still shown; reload the saved ones to see theirs, or save again to replace them.`
              : `The targets were not saved: ${t.save.error.detail}`}
          </p>
          {t.save.error.status === 409 && (
            <button type="button" className="button" onClick={t.reload}>
              Load the saved targets
            </button>
          )}
        </div>
      )}
      <p className={styles.source}>
        {presetNote && <>{presetNote} </>}
        Legal minimums: {LEGAL_MINIMUM_SOURCE.title}. They are floors for seed offered for sale, measured in a laboratory
        germination test, not a commercial specification; set your own targets above them.
      </p>
    </section>
  );
}
