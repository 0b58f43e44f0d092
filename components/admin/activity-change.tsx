'use client';

import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import type { ActivityEntry } from '@/lib/contract/people';
import { DEFAULT_TARGETS, type Targets } from '@/lib/contract/targets';
import { targetChanges } from '@/lib/people/targets-diff';

/*
 * The activity log's Change column in the reader's words: what a target change changed, target by target; how
 * someone signed in (or was refused); a role before and after; how many sessions were signed out. Anything the
 * log holds that has no sentence here is shown as its before and after.
 */

type Record_ = Record<string, unknown>;
const isRecord = (v: unknown): v is Record_ => typeof v === 'object' && v !== null && !Array.isArray(v);
const isTargets = (v: unknown): v is Targets => isRecord(v) && 'general' in v && 'crops' in v;
const ROLES = ['viewer', 'editor', 'admin'] as const;
const isRole = (v: unknown): v is (typeof ROLES)[number] => ROLES.includes(v as (typeof ROLES)[number]);
const METHODS = ['password', 'oidc'] as const;
const isMethod = (v: unknown): v is (typeof METHODS)[number] => METHODS.includes(v as (typeof METHODS)[number]);

/** A before or after as it was recorded: `role: editor, by: oidc`. */
const shown = (value: unknown): string =>
  isRecord(value)
    ? Object.entries(value)
        .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
        .join(', ')
    : JSON.stringify(value);

/** Whether the entry is a sign-in the dashboard refused (the Action column says so). */
export const isRefusedSignIn = (entry: ActivityEntry) =>
  entry.action === 'sign_in' && isRecord(entry.after) && entry.after.result === 'refused';

export function ActivityChange({ entry }: { entry: ActivityEntry }) {
  const t = useTranslations('people.activity');
  const th = useTranslations('people.targetsHistory');
  const roles = useTranslations('people.roles');
  const f = useFormats();
  const pct = (v: number | null) => (v === null ? th('none') : f.percentUpTo(v));
  const { action, before, after } = entry;
  const role = (v: unknown) => (isRole(v) ? roles(v) : String(v));
  const lines = (texts: string[]) => texts.map((text) => <div key={text}>{text}</div>);

  if (isTargets(after) && (before === null || isTargets(before))) {
    // Never saved before: the dashboard's defaults were in force.
    const changes = targetChanges(before ?? DEFAULT_TARGETS, after);
    if (changes.length === 0) return <div>{th('noChange')}</div>;
    return lines(
      changes.map((c) =>
        th('change', {
          target: c.crop === null ? th(`general.${c.metric}`) : th(`crop.${c.metric}`, { crop: c.crop }),
          before: pct(c.before),
          after: pct(c.after),
        }),
      ),
    );
  }
  if (action === 'sign_in' && isRecord(after) && isMethod(after.method)) {
    const method = t(`changes.methods.${after.method}`);
    return (
      <div>
        {after.result === 'refused' ? t('changes.refusedWith', { method }) : t('changes.signedInWith', { method })}
      </div>
    );
  }
  const sso = isRecord(after) && after.by === 'oidc' ? ` ${t('changes.bySingleSignOn')}` : '';
  if (action === 'role_changed' && isRecord(before) && isRecord(after))
    return <div>{`${t('changes.role', { before: role(before.role), after: role(after.role) })}${sso}`}</div>;
  if ((action === 'person_invited' || action === 'person_joined') && isRecord(after))
    return <div>{`${t('changes.as', { role: role(after.role) })}${sso}`}</div>;
  if (action === 'person_removed' && isRecord(before))
    return <div>{t('changes.was', { role: role(before.role) })}</div>;
  if (action === 'sessions_revoked' && isRecord(after) && typeof after.sessions === 'number') {
    const count = t('changes.sessions', { count: after.sessions, countText: f.number(after.sessions) });
    return (
      <div>
        {after.others
          ? t('changes.allOthers', { sessions: count })
          : typeof after.browser === 'string'
            ? t('changes.browser', { sessions: count, browser: after.browser })
            : count}
      </div>
    );
  }
  if (action === 'connection_changed' && isRecord(before) && isRecord(after)) {
    return lines([
      ...(before.clientId !== after.clientId
        ? [t('changes.clientId', { before: String(before.clientId), after: String(after.clientId) })]
        : []),
      t('changes.secretReplaced'),
    ]);
  }
  if ((action === 'view_created' || action === 'view_deleted') && isRecord(before ?? after)) {
    const view = (before ?? after) as Record_;
    return (
      <div>
        {view.isDefault ? t('changes.defaultView') : view.shared ? t('changes.sharedView') : t('changes.ownView')}
      </div>
    );
  }
  return (
    <>
      {before !== null && <div>{t('before', { value: shown(before) })}</div>}
      {after !== null && <div>{t('after', { value: shown(after) })}</div>}
    </>
  );
}
