'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslations } from 'use-intl';
import styles from '@/components/admin/admin.module.css';
import type { AlertRule, AlertRuleList, PersonRef, SubscriptionState } from '@/lib/contract/alerts';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { callApi } from '@/lib/people/api-client';
import own from './alerts.module.css';
import { RULES_KEY } from './use-alerts-api';
import { useRuleWords } from './use-rule-words';

const CHOICES: SubscriptionState[] = ['none', 'subscribed', 'muted'];

/** A webhook as the list shows it: its host and format, never its path (Slack's and Teams' URLs hold a token there). */
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host : url.slice(0, 40));

/**
 * One rule: what it watches, delivery, recipients and webhooks; the person's own choice (default, subscribed,
 * muted) and whether they receive it; edit, pause and delete for those who may.
 */
export function AlertRuleItem({
  rule,
  people,
  me,
  canEdit,
  onEdit,
  onSaid,
}: {
  rule: AlertRule;
  people: PersonRef[];
  me: string;
  canEdit: boolean;
  onEdit: () => void;
  onSaid: (said: { ok: boolean; text: string }) => void;
}) {
  const t = useTranslations('alerts.list');
  const formats = useTranslations('alerts.form.formats');
  const words = useRuleWords();
  const client = useQueryClient();
  const id = useId();
  const [deleting, setDeleting] = useState(false);
  const path = `/api/alerts/${encodeURIComponent(rule.id)}`;
  const act = useMutation<unknown, ApiFailure, { run: () => Promise<unknown>; done: string }>({
    mutationFn: ({ run }) => run(),
    onSuccess: (_, { done }) => onSaid({ ok: true, text: done }),
    onError: (error) => onSaid({ ok: false, text: t('failed', { detail: error.detail.replace(/^\w+: /, '') }) }),
    onSettled: () => client.invalidateQueries({ queryKey: RULES_KEY }),
  });
  const run = (work: () => Promise<unknown>, done: string) => act.mutate({ run: work, done });
  // The person's choice shows at once (set in the click's own event, not when the mutation reports); the rule
  // as the server answers it then replaces it in the list.
  const [picked, setPicked] = useState<SubscriptionState | null>(null);
  const choose = useMutation<AlertRule, ApiFailure, SubscriptionState>({
    mutationFn: (state) => callApi(`${path}/subscription`, { method: 'PUT', body: { state } }),
    onSuccess: (saved, state) => {
      client.setQueryData<AlertRuleList>(
        RULES_KEY,
        (list) => list && { rules: list.rules.map((r) => (r.id === saved.id ? saved : r)) },
      );
      onSaid({ ok: true, text: t(`chose.${state}`, { name: rule.name }) });
    },
    onError: (error) => {
      onSaid({ ok: false, text: t('failed', { detail: error.detail.replace(/^\w+: /, '') }) });
      void client.invalidateQueries({ queryKey: RULES_KEY });
    },
    onSettled: () => setPicked(null),
  });
  const choice = picked ?? rule.subscription;
  const nameOf = (email: string) => {
    const person = people.find((p) => p.email.toLowerCase() === email.toLowerCase());
    const who = person?.name || email;
    return email.toLowerCase() === me.toLowerCase() ? t('you', { name: who }) : who;
  };
  return (
    <li className={own.rule} aria-labelledby={`${id}name`}>
      <div className={own.ruleHead}>
        <h3 id={`${id}name`}>{rule.name}</h3>
        {rule.paused && <span className={styles.warnBadge}>{t('paused')}</span>}
        <span className={rule.receiving ? styles.badge : own.quietBadge}>
          {rule.receiving ? t('receiving') : t('notReceiving')}
        </span>
      </div>
      <p className={own.watches}>{words.watches(rule)}</p>
      <dl className={own.facts}>
        <dt>{t('delivery')}</dt>
        <dd>{words.delivery(rule.delivery, rule.digestHour)}</dd>
        <dt>{t('recipients')}</dt>
        <dd>{rule.recipients.length ? rule.recipients.map(nameOf).join(', ') : t('noRecipients')}</dd>
        <dt>{t('webhooks')}</dt>
        <dd>
          {rule.webhooks.length
            ? rule.webhooks
                .map((w) => `${hostOf(w.url)} (${formats(w.format)}${w.secretSet ? `, ${t('signed')}` : ''})`)
                .join(', ')
            : t('noWebhooks')}
        </dd>
        {rule.createdBy && (
          <>
            <dt>{t('createdBy')}</dt>
            <dd>{rule.createdBy.name || rule.createdBy.email}</dd>
          </>
        )}
      </dl>
      <div className={own.ruleFoot}>
        <fieldset className={own.segmented}>
          <legend>
            {t('yourChoice')}
            <span className="visually-hidden"> {rule.name}</span>
          </legend>
          {CHOICES.map((state) => (
            <label key={state}>
              <input
                type="radio"
                name={`${id}choice`}
                value={state}
                checked={choice === state}
                onChange={() => {
                  setPicked(state);
                  choose.mutate(state);
                }}
              />
              <span>{t(`choices.${state}`)}</span>
            </label>
          ))}
        </fieldset>
        {canEdit && (
          <div className={styles.actions}>
            <button type="button" className="button" aria-label={t('editOf', { name: rule.name })} onClick={onEdit}>
              {t('edit')}
            </button>
            <button
              type="button"
              className="button"
              disabled={act.isPending}
              aria-label={rule.paused ? t('resumeOf', { name: rule.name }) : t('pauseOf', { name: rule.name })}
              onClick={() =>
                run(
                  () => callApi(path, { method: 'PATCH', body: { paused: !rule.paused } }),
                  rule.paused ? t('resumed', { name: rule.name }) : t('pausedNow', { name: rule.name }),
                )
              }
            >
              {rule.paused ? t('resume') : t('pause')}
            </button>
            {deleting ? (
              <span role="group" aria-label={t('deleteQuestion', { name: rule.name })} className={styles.actions}>
                {t('deleteQuestion', { name: rule.name })}
                <button
                  type="button"
                  className="button"
                  disabled={act.isPending}
                  onClick={() => run(() => callApi(path, { method: 'DELETE' }), t('deleted', { name: rule.name }))}
                >
                  {t('delete')}
                </button>
                <button type="button" className="button" onClick={() => setDeleting(false)}>
                  {t('keep')}
                </button>
              </span>
            ) : (
              <button
                type="button"
                className="button"
                aria-label={t('deleteOf', { name: rule.name })}
                onClick={() => setDeleting(true)}
              >
                {t('delete')}
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
