'use client';

import { useTranslations } from 'use-intl';
import { MAX_ALERT_WEBHOOKS, WEBHOOK_FORMATS } from '@/lib/contract/alerts';
import { webhookKey, type WebhookDraft } from '@/lib/alerts/rule-draft';
import { Field, Problem, type FieldIds } from './form-field';
import own from './alerts.module.css';

/**
 * A rule's webhooks: URL, payload format and the secret that signs each request. The secret is never shown
 * back: a saved one is said to be set, and stays unless a new one is typed (or the URL changes).
 */
export function WebhooksField({
  ids,
  webhooks,
  onChange,
}: {
  ids: FieldIds;
  webhooks: WebhookDraft[];
  onChange: (webhooks: WebhookDraft[]) => void;
}) {
  const t = useTranslations('alerts.form');
  const set = (i: number, part: Partial<WebhookDraft>) =>
    onChange(webhooks.map((w, j) => (j === i ? { ...w, ...part } : w)));
  return (
    <fieldset
      className={own.group}
      id={ids.id('webhooks')}
      tabIndex={-1}
      aria-describedby={[`${ids.id('webhooks')}-hint`, ids.problem('webhooks') && `${ids.id('webhooks')}-problem`]
        .filter(Boolean)
        .join(' ')}
    >
      <legend>{t('webhooks')}</legend>
      <span id={`${ids.id('webhooks')}-hint`} className={own.hint}>
        {t('webhooksHint')}
      </span>
      {webhooks.map((w, i) => {
        const keeps = w.secretSet && w.savedUrl === w.url.trim() && w.secret === '';
        return (
          <fieldset key={w.key} className={own.webhook}>
            <legend>{t('webhookN', { n: i + 1 })}</legend>
            <div className={own.row}>
              <Field ids={ids} field={`webhooks.${i}.url`} label={t('url')}>
                <input
                  {...ids.describe(`webhooks.${i}.url`)}
                  className={own.url}
                  type="url"
                  value={w.url}
                  maxLength={2000}
                  placeholder="https://"
                  onChange={(e) => set(i, { url: e.target.value })}
                />
              </Field>
              <Field ids={ids} field={`webhooks.${i}.format`} label={t('format')}>
                <select
                  {...ids.describe(`webhooks.${i}.format`)}
                  value={w.format}
                  onChange={(e) => set(i, { format: e.target.value as WebhookDraft['format'] })}
                >
                  {WEBHOOK_FORMATS.map((f) => (
                    <option key={f} value={f}>
                      {t(`formats.${f}`)}
                    </option>
                  ))}
                </select>
              </Field>
              <Field
                ids={ids}
                field={`webhooks.${i}.secret`}
                label={t('secret')}
                hint={keeps ? t('secretSet') : w.secretSet && w.secret === '' ? t('secretDropped') : t('secretHint')}
              >
                <input
                  {...ids.describe(`webhooks.${i}.secret`, `${ids.id(`webhooks.${i}.secret`)}-hint`)}
                  type="password"
                  autoComplete="new-password"
                  value={w.secret}
                  maxLength={400}
                  onChange={(e) => set(i, { secret: e.target.value })}
                />
              </Field>
              <button
                type="button"
                className="button"
                aria-label={t('removeWebhookN', { n: i + 1 })}
                onClick={() => onChange(webhooks.filter((_, j) => j !== i))}
              >
                {t('remove')}
              </button>
            </div>
          </fieldset>
        );
      })}
      <div>
        <button
          type="button"
          className="button"
          disabled={webhooks.length >= MAX_ALERT_WEBHOOKS}
          onClick={() =>
            onChange([
              ...webhooks,
              { key: webhookKey(), url: '', format: 'json', secret: '', secretSet: false, savedUrl: null },
            ])
          }
        >
          {t('addWebhook')}
        </button>
      </div>
      <Problem ids={ids} field="webhooks" />
    </fieldset>
  );
}
