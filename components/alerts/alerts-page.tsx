'use client';

import { useRef, useState } from 'react';
import { useTranslations } from 'use-intl';
import styles from '@/components/admin/admin.module.css';
import type { PageRole } from '@/components/auth/role-context';
import type { AlertRule } from '@/lib/contract/alerts';
import { AlertRuleForm } from './alert-rule-form';
import { AlertRuleItem } from './alert-rule-item';
import { AlertsHistory } from './alerts-history';
import own from './alerts.module.css';
import { usePeople, useRules } from './use-alerts-api';

/**
 * The organisation's alert rules and the alerts history. Editors and administrators make, change and delete
 * rules; everyone chooses for themselves whether to get each one.
 */
export function AlertsPage({ role, me }: { role: PageRole; me: string }) {
  const t = useTranslations('alerts.list');
  const rules = useRules();
  const people = usePeople();
  const canEdit = role !== 'viewer';
  // null: no form open; 'new': a new rule; else the rule being changed.
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const close = (text: string | null) => {
    setEditing(null);
    if (text) setSaid({ ok: true, text });
    newButton.current?.focus();
  };
  return (
    <>
      {editing !== null && (
        <AlertRuleForm
          key={editing === 'new' ? 'new' : editing.id}
          rule={editing === 'new' ? null : editing}
          me={me}
          admin={role === 'admin'}
          onDone={close}
        />
      )}
      <section className={styles.card} aria-labelledby="alert-rules-title">
        <div className={own.cardHead}>
          <h2 id="alert-rules-title">{t('title')}</h2>
          {canEdit && (
            <button
              ref={newButton}
              type="button"
              className="button"
              onClick={() => {
                setSaid(null);
                setEditing('new');
              }}
            >
              {t('new')}
            </button>
          )}
        </div>
        <p className={styles.muted}>{canEdit ? t('introEditor') : t('introViewer')}</p>
        <p
          aria-live="polite"
          className={said?.ok ? styles.ok : styles.problem}
          role={said && !said.ok ? 'alert' : undefined}
        >
          {said?.text ?? ''}
        </p>
        {rules.isPending ? (
          <p className={styles.muted}>{t('loading')}</p>
        ) : rules.isError ? (
          <p role="alert" className={styles.problem}>
            {t('loadFailed', { detail: rules.error.detail.replace(/^\w+: /, '') })}
          </p>
        ) : rules.data.rules.length === 0 ? (
          <p className={styles.muted}>{canEdit ? t('noneEditor') : t('noneViewer')}</p>
        ) : (
          <ul className={own.rules} aria-labelledby="alert-rules-title">
            {rules.data.rules.map((rule) => (
              <AlertRuleItem
                key={rule.id}
                rule={rule}
                people={people.data?.people ?? []}
                me={me}
                canEdit={canEdit}
                onSaid={setSaid}
                onEdit={() => {
                  setSaid(null);
                  setEditing(rule);
                  window.scrollTo({ top: 0 });
                }}
              />
            ))}
          </ul>
        )}
      </section>
      <AlertsHistory />
    </>
  );
}
