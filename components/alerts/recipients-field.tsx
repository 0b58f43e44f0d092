'use client';

import { useState } from 'react';
import { useTranslations } from 'use-intl';
import { MAX_ALERT_RECIPIENTS } from '@/lib/contract/alerts';
import { Problem, type FieldIds } from './form-field';
import own from './alerts.module.css';
import { usePeople } from './use-alerts-api';

/**
 * Who gets a rule: the organisation's people to tick, and addresses outside it, which only an administrator
 * may add (an editor may still take one off). Everyone else can subscribe on the list of rules.
 */
export function RecipientsField({
  ids,
  admin,
  me,
  recipients,
  onChange,
}: {
  ids: FieldIds;
  admin: boolean;
  me: string;
  recipients: string[];
  onChange: (recipients: string[]) => void;
}) {
  const t = useTranslations('alerts.form');
  const people = usePeople();
  const [address, setAddress] = useState('');
  const members = people.data?.people ?? [];
  const known = new Set(members.map((p) => p.email.toLowerCase()));
  const outside = recipients.filter((r) => !known.has(r.toLowerCase()));
  const chosen = new Set(recipients.map((r) => r.toLowerCase()));
  const toggle = (email: string, on: boolean) =>
    onChange(on ? [...recipients, email] : recipients.filter((r) => r.toLowerCase() !== email.toLowerCase()));
  const add = () => {
    const email = address.trim();
    if (email === '') return;
    if (!chosen.has(email.toLowerCase())) onChange([...recipients, email]);
    setAddress('');
  };
  return (
    <fieldset
      className={own.group}
      id={ids.id('recipients')}
      tabIndex={-1}
      aria-describedby={[`${ids.id('recipients')}-hint`, ids.problem('recipients') && `${ids.id('recipients')}-problem`]
        .filter(Boolean)
        .join(' ')}
    >
      <legend>{t('recipients')}</legend>
      <span id={`${ids.id('recipients')}-hint`} className={own.hint}>
        {t('recipientsHint', { count: recipients.length, max: MAX_ALERT_RECIPIENTS })}
      </span>
      {people.isError && (
        <span className={own.fieldProblem}>
          {t('peopleFailed', { detail: people.error.detail.replace(/^\w+: /, '') })}
        </span>
      )}
      <ul className={own.people}>
        {members.map((person) => (
          <li key={person.email}>
            <label className={own.choice}>
              <input
                type="checkbox"
                checked={chosen.has(person.email.toLowerCase())}
                onChange={(e) => toggle(person.email, e.target.checked)}
              />
              <span>
                {person.name || person.email}
                {person.email.toLowerCase() === me.toLowerCase() && ` (${t('you')})`}
                {person.name && <span className={own.hint}> {person.email}</span>}
              </span>
            </label>
          </li>
        ))}
        {outside.map((email) => (
          <li key={email}>
            <label className={own.choice}>
              <input type="checkbox" checked onChange={() => toggle(email, false)} />
              <span>
                {email} <span className={own.hint}>{t('outside')}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {admin && (
        <div className={own.row}>
          <div className={own.field}>
            <label htmlFor={ids.id('recipient-address')}>{t('addAddress')}</label>
            <input
              id={ids.id('recipient-address')}
              type="email"
              autoComplete="off"
              value={address}
              maxLength={254}
              onChange={(e) => setAddress(e.target.value)}
              onKeyDown={(e) => {
                // Enter adds the address here rather than sending the whole form.
                if (e.key === 'Enter') {
                  e.preventDefault();
                  add();
                }
              }}
            />
          </div>
          <button type="button" className="button" disabled={address.trim() === ''} onClick={add}>
            {t('add')}
          </button>
        </div>
      )}
      <Problem ids={ids} field="recipients" />
    </fieldset>
  );
}
