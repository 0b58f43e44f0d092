'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslations } from 'use-intl';
import { ROLE_NAMES, type MemberEntry, type RoleName } from '@/lib/contract/people';
import type { ApiFailure } from '@/lib/explorer/api-failure';
import { callApi } from '@/lib/people/api-client';
import styles from './admin.module.css';
import { CopyLink } from './copy-link';
import { useWhen } from './use-when';

const KEY = ['admin', 'people'] as const;

/**
 * The organisation's people for its administrators: invite by e-mail with a role (the link shown once),
 * change a role, disable or enable, sign out everywhere, issue a password reset link, remove.
 */
export function PeopleAdmin({ me }: { me: string }) {
  const t = useTranslations('people.admin');
  const client = useQueryClient();
  const people = useQuery<{ people: MemberEntry[] }, ApiFailure>({
    queryKey: KEY,
    queryFn: ({ signal }) => callApi('/api/admin/people', { signal }),
    retry: false,
  });
  const [link, setLink] = useState<{ label: string; url: string } | null>(null);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const settled = () => client.invalidateQueries({ queryKey: KEY });
  const act = useMutation<unknown, ApiFailure, { run: () => Promise<unknown>; done: string }>({
    mutationFn: ({ run }) => run(),
    onMutate: () => setSaid(null),
    onSuccess: (_, { done }) => setSaid({ ok: true, text: done }),
    onError: (error) => setSaid({ ok: false, text: error.detail.replace(/^\w+: /, '') }),
    onSettled: settled,
  });
  const run = (run: () => Promise<unknown>, done: string) => act.mutate({ run, done });

  return (
    <>
      <InviteForm
        onInvited={(email, url, emailed) => (
          setLink(
            url ? { label: emailed ? t('inviteLinkEmailed', { email }) : t('inviteLinkFor', { email }), url } : null,
          ),
          setSaid({
            ok: true,
            text: url ? (emailed ? t('invitedEmailed', { email }) : t('invited', { email })) : t('added', { email }),
          }),
          void settled()
        )}
      />
      {link && <CopyLink label={link.label} url={link.url} />}
      <section className={styles.card} aria-labelledby="people-title">
        <h2 id="people-title">{t('peopleTitle')}</h2>
        <p
          aria-live="polite"
          className={said?.ok ? styles.ok : styles.problem}
          role={said && !said.ok ? 'alert' : undefined}
        >
          {said?.text ?? ''}
        </p>
        {people.isPending ? (
          <p className={styles.muted}>{t('loading')}</p>
        ) : people.isError ? (
          <p role="alert" className={styles.problem}>
            {t('loadFailed', { detail: people.error.detail })}
          </p>
        ) : (
          <div className={styles.tableWrap}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">{t('person')}</th>
                  <th scope="col">{t('role')}</th>
                  <th scope="col">{t('status')}</th>
                  <th scope="col">{t('lastSeen')}</th>
                  <th scope="col">{t('actions')}</th>
                </tr>
              </thead>
              <tbody>
                {people.data.people.map((person) => (
                  <PersonRow
                    key={person.id}
                    person={person}
                    me={person.email === me}
                    busy={act.isPending}
                    run={run}
                    onLink={setLink}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

type RowProps = {
  person: MemberEntry;
  me: boolean;
  busy: boolean;
  run: (work: () => Promise<unknown>, done: string) => void;
  onLink: (link: { label: string; url: string }) => void;
};

function PersonRow({ person, me, busy, run, onLink }: RowProps) {
  const t = useTranslations('people.admin');
  const roles = useTranslations('people.roles');
  const when = useWhen();
  const [removing, setRemoving] = useState(false);
  const who = person.name || person.email;
  const path = `/api/admin/people/${encodeURIComponent(person.id)}`;
  return (
    <tr>
      <th scope="row">
        {person.name || <span className={styles.muted}>{t('noName')}</span>}
        {me && <> ({t('you')})</>}
        <br />
        <span className={styles.email}>{person.email}</span>
      </th>
      <td data-label={t('role')}>
        <select
          aria-label={t('roleOf', { name: who })}
          value={person.role}
          disabled={busy}
          onChange={(e) => {
            const role = e.target.value as RoleName;
            run(
              () => callApi(path, { method: 'PATCH', body: { role } }),
              t('roleChanged', { name: who, role: roles(role) }),
            );
          }}
        >
          {ROLE_NAMES.map((role) => (
            <option key={role} value={role}>
              {roles(role)}
            </option>
          ))}
        </select>
      </td>
      <td data-label={t('status')}>
        {person.disabled ? (
          <span className={styles.warnBadge}>{t('disabled')}</span>
        ) : person.invitePending ? (
          <span className={styles.warnBadge}>{t('invitePending')}</span>
        ) : (
          <span className={styles.badge}>{t('active')}</span>
        )}
      </td>
      <td data-label={t('lastSeen')}>{when(person.lastSeenAt)}</td>
      <td>
        <div className={styles.actions}>
          <button
            type="button"
            className="button"
            disabled={busy}
            aria-label={person.disabled ? t('enableOf', { name: who }) : t('disableOf', { name: who })}
            onClick={() =>
              run(
                () => callApi(path, { method: 'PATCH', body: { disabled: !person.disabled } }),
                person.disabled ? t('enabled', { name: who }) : t('disabledNow', { name: who }),
              )
            }
          >
            {person.disabled ? t('enable') : t('disable')}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy}
            aria-label={t('signOutOf', { name: who })}
            onClick={() => run(() => callApi(`${path}/sessions`, { method: 'DELETE' }), t('signedOut', { name: who }))}
          >
            {t('signOut')}
          </button>
          <button
            type="button"
            className="button"
            disabled={busy || person.disabled}
            aria-label={t('resetOf', { name: who })}
            onClick={() =>
              run(
                async () => {
                  const { resetUrl, emailed } = await callApi<{ resetUrl: string; emailed: boolean }>(`${path}/reset`, {
                    method: 'POST',
                  });
                  onLink({
                    label: emailed
                      ? t('resetLinkEmailed', { email: person.email })
                      : t('resetLinkFor', { email: person.email }),
                    url: resetUrl,
                  });
                },
                t('resetIssued', { name: who }),
              )
            }
          >
            {t('reset')}
          </button>
          {removing ? (
            <span role="group" aria-label={t('removeQuestion', { name: who })} className={styles.actions}>
              {t('removeQuestion', { name: who })}
              <button
                type="button"
                className="button"
                disabled={busy}
                onClick={() => run(() => callApi(path, { method: 'DELETE' }), t('removed', { name: who }))}
              >
                {t('remove')}
              </button>
              <button type="button" className="button" onClick={() => setRemoving(false)}>
                {t('keep')}
              </button>
            </span>
          ) : (
            <button
              type="button"
              className="button"
              disabled={busy}
              aria-label={t('removeOf', { name: who })}
              onClick={() => setRemoving(true)}
            >
              {t('remove')}
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

function InviteForm({ onInvited }: { onInvited: (email: string, url: string | null, emailed: boolean) => void }) {
  const t = useTranslations('people.admin');
  const roles = useTranslations('people.roles');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<RoleName>('viewer');
  const invite = useMutation<{ id: string; inviteUrl: string | null; emailed: boolean }, ApiFailure>({
    mutationFn: () => callApi('/api/admin/people', { method: 'POST', body: { email, role } }),
    onSuccess: ({ inviteUrl, emailed }) => {
      onInvited(email, inviteUrl, emailed);
      setEmail('');
    },
  });
  return (
    <section className={styles.card} aria-labelledby="invite-title">
      <h2 id="invite-title">{t('inviteTitle')}</h2>
      <p className={styles.muted}>{t('inviteHelp')}</p>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          invite.mutate();
        }}
      >
        <label className={`${styles.field} ${styles.wide}`}>
          {t('email')}
          <input
            type="email"
            value={email}
            required
            maxLength={320}
            onChange={(e) => (setEmail(e.target.value), invite.reset())}
            aria-invalid={invite.isError || undefined}
          />
        </label>
        <label className={styles.field}>
          {t('role')}
          <select aria-label={t('role')} value={role} onChange={(e) => setRole(e.target.value as RoleName)}>
            {ROLE_NAMES.map((r) => (
              <option key={r} value={r}>
                {roles(r)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="button" disabled={email.trim() === '' || invite.isPending}>
          {invite.isPending ? t('inviting') : t('invite')}
        </button>
      </form>
      {invite.isError && (
        <p role="alert" className={styles.problem}>
          {t('notInvited', { detail: invite.error.detail.replace(/^\w+: /, '') })}
        </p>
      )}
    </section>
  );
}
