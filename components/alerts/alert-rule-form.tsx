'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslations } from 'use-intl';
import styles from '@/components/admin/admin.module.css';
import {
  ALERT_DELIVERY,
  ALERT_SIGNALS,
  ALERT_TARGETS,
  ALERT_WHEN,
  MAX_ALERT_NAME,
  MAX_SEARCH,
  SILENT_BY,
  type AlertRule,
} from '@/lib/contract/alerts';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import {
  changeBody,
  createBody,
  draftOf,
  emptyDraft,
  problemOf,
  type FieldProblem,
  type RuleDraft,
} from '@/lib/alerts/rule-draft';
import { callApi } from '@/lib/people/api-client';
import own from './alerts.module.css';
import { Field, Problem, type FieldIds } from './form-field';
import { RecipientsField } from './recipients-field';
import { RULES_KEY, useCrops } from './use-alerts-api';
import { hourText, WHEN_KEYS } from './use-rule-words';
import { WebhooksField } from './webhooks-field';

const HOURS = Array.from({ length: 24 }, (_, h) => h);

/**
 * A new rule, or a change to `rule`: what it watches, which batches, who gets it and over which channels, and
 * when. A refusal of the server is shown at the field it names, which gets the focus.
 */
export function AlertRuleForm({
  rule,
  me,
  admin,
  onDone,
}: {
  rule: AlertRule | null;
  me: string;
  admin: boolean;
  onDone: (said: string | null) => void;
}) {
  const t = useTranslations('alerts.form');
  const base = useId();
  const client = useQueryClient();
  const crops = useCrops();
  const [draft, setDraft] = useState<RuleDraft>(() => (rule ? draftOf(rule) : emptyDraft(me)));
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const change = (part: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...part }));
  const save = useMutation<AlertRule, ApiFailure>({
    mutationFn: () =>
      rule
        ? callApi(`/api/alerts/${encodeURIComponent(rule.id)}`, { method: 'PATCH', body: changeBody(draft) })
        : callApi('/api/alerts', { method: 'POST', body: createBody(draft) }),
    onMutate: () => setProblem(null),
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: RULES_KEY });
      onDone(rule ? t('saved', { name: saved.name }) : t('created', { name: saved.name }));
    },
    // A 422 names the field; so do a name taken (409) and an outside address from an editor (403).
    onError: (error) => {
      const found = problemOf(error.detail, draft);
      setProblem(found.field === 'form' ? { field: 'form', message: error.detail.replace(/^\w+: /, '') } : found);
    },
  });
  // The field a refusal names takes the focus, so its line is read out next to it.
  useEffect(() => {
    if (!problem) return;
    const target =
      problem.field === 'form' ? null : formRef.current?.querySelector<HTMLElement>(`[id="${base}${problem.field}"]`);
    (target ?? formRef.current?.querySelector<HTMLElement>('[role="alert"]'))?.focus();
  }, [problem, base]);

  const ids: FieldIds = {
    id: (field) => `${base}${field}`,
    problem: (field) => (problem?.field === field ? problem : null),
    describe: (field, hint) => {
      const wrong = problem?.field === field;
      const described = [hint, wrong ? `${base}${field}-problem` : undefined].filter(Boolean).join(' ');
      return { id: `${base}${field}`, 'aria-invalid': wrong || undefined, 'aria-describedby': described || undefined };
    },
  };
  const title = rule ? t('editTitle', { name: rule.name }) : t('newTitle');
  return (
    <section className={styles.card} aria-labelledby={`${base}title`}>
      <h2 id={`${base}title`}>{title}</h2>
      <form
        ref={formRef}
        noValidate
        className={own.form}
        aria-labelledby={`${base}title`}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Field ids={ids} field="name" label={t('name')}>
          <input
            {...ids.describe('name')}
            value={draft.name}
            maxLength={MAX_ALERT_NAME * 2}
            autoFocus
            onChange={(e) => change({ name: e.target.value })}
          />
        </Field>

        <fieldset className={own.group}>
          <legend>{t('whenLegend')}</legend>
          <div className={own.row}>
            <Field ids={ids} field="when" label={t('when')} hint={rule ? t('whenFixed') : undefined}>
              <select
                {...ids.describe('when', rule ? `${base}when-hint` : undefined)}
                value={draft.when}
                disabled={rule !== null}
                onChange={(e) => change({ when: e.target.value as RuleDraft['when'] })}
              >
                {ALERT_WHEN.map((w) => (
                  <option key={w} value={w}>
                    {t(`whenOptions.${WHEN_KEYS[w]}`)}
                  </option>
                ))}
              </select>
            </Field>
            {(draft.when === 'misses-target' || draft.when === 'control-signal') && (
              <Field ids={ids} field="target" label={draft.when === 'control-signal' ? t('chart') : t('target')}>
                <select
                  {...ids.describe('target')}
                  value={draft.target}
                  onChange={(e) => change({ target: e.target.value as RuleDraft['target'] })}
                >
                  {ALERT_TARGETS.map((v) => (
                    <option key={v} value={v}>
                      {draft.when === 'control-signal' ? t(`charts.${v}`) : t(`targets.${v}`)}
                    </option>
                  ))}
                </select>
              </Field>
            )}
            {draft.when === 'control-signal' && (
              <Field ids={ids} field="signal" label={t('signal')}>
                <select
                  {...ids.describe('signal')}
                  value={draft.signal}
                  onChange={(e) => change({ signal: e.target.value as RuleDraft['signal'] })}
                >
                  {ALERT_SIGNALS.map((v) => (
                    <option key={v} value={v}>
                      {t(`signals.${v}`)}
                    </option>
                  ))}
                </select>
              </Field>
            )}
            {draft.when === 'silent' && (
              <>
                <Field ids={ids} field="silentDays" label={t('silentDays')}>
                  <input
                    {...ids.describe('silentDays')}
                    className={own.short}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={365}
                    step={1}
                    value={draft.silentDays}
                    onChange={(e) => change({ silentDays: e.target.value })}
                  />
                </Field>
                <Field ids={ids} field="silentBy" label={t('silentBy')}>
                  <select
                    {...ids.describe('silentBy')}
                    value={draft.silentBy}
                    onChange={(e) => change({ silentBy: e.target.value as RuleDraft['silentBy'] })}
                  >
                    {SILENT_BY.map((v) => (
                      <option key={v} value={v}>
                        {t(`silentByOptions.${v}`)}
                      </option>
                    ))}
                  </select>
                </Field>
              </>
            )}
          </div>
        </fieldset>

        <fieldset className={own.group}>
          <legend>{t('whichLegend')}</legend>
          <div className={own.row}>
            <Field ids={ids} field="crop" label={t('crop')} hint={t('cropHint')}>
              <input
                {...ids.describe('crop', `${base}crop-hint`)}
                list={`${base}crops`}
                value={draft.crop}
                maxLength={200}
                onChange={(e) => change({ crop: e.target.value })}
              />
            </Field>
            <datalist id={`${base}crops`}>
              {(crops.data ?? []).map((crop) => (
                <option key={crop} value={crop} />
              ))}
            </datalist>
            {draft.when !== 'silent' && (
              <Field ids={ids} field="search" label={t('search')} hint={t('searchHint')}>
                <input
                  {...ids.describe('search', `${base}search-hint`)}
                  type="search"
                  value={draft.search}
                  maxLength={MAX_SEARCH * 2}
                  onChange={(e) => change({ search: e.target.value })}
                />
              </Field>
            )}
          </div>
        </fieldset>

        <RecipientsField
          ids={ids}
          admin={admin}
          me={me}
          recipients={draft.recipients}
          onChange={(recipients) => change({ recipients })}
        />
        <WebhooksField ids={ids} webhooks={draft.webhooks} onChange={(webhooks) => change({ webhooks })} />

        <fieldset
          className={own.group}
          aria-describedby={ids.problem('delivery') ? `${base}delivery-problem` : undefined}
        >
          <legend>{t('delivery')}</legend>
          <div className={own.choices}>
            {ALERT_DELIVERY.map((d) => (
              <label key={d} className={own.choice}>
                <input
                  type="radio"
                  name={`${base}delivery`}
                  id={d === draft.delivery ? `${base}delivery` : undefined}
                  value={d}
                  checked={draft.delivery === d}
                  onChange={() => change({ delivery: d })}
                />
                {t(`deliveries.${d}`)}
              </label>
            ))}
          </div>
          {draft.delivery === 'daily' && (
            <div className={own.row}>
              <Field ids={ids} field="digestHour" label={t('digestHour')} hint={t('digestHourHint')}>
                <select
                  {...ids.describe('digestHour', `${base}digestHour-hint`)}
                  value={draft.digestHour}
                  onChange={(e) => change({ digestHour: Number(e.target.value) })}
                >
                  {HOURS.map((h) => (
                    <option key={h} value={h}>
                      {hourText(h)}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
          )}
          <Problem ids={ids} field="delivery" />
        </fieldset>

        <label className={own.choice}>
          <input
            type="checkbox"
            {...ids.describe('paused')}
            checked={draft.paused}
            onChange={(e) => change({ paused: e.target.checked })}
          />
          {t('paused')}
        </label>
        <Problem ids={ids} field="paused" />

        {problem?.field === 'form' && (
          <p role="alert" tabIndex={-1} className={styles.problem}>
            {t('notSaved', { detail: problem.message })}
          </p>
        )}
        <div className={styles.actions}>
          <button type="submit" className="button" disabled={save.isPending}>
            {save.isPending ? t('saving') : rule ? t('save') : t('create')}
          </button>
          <button type="button" className="button" onClick={() => onDone(null)}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </section>
  );
}
