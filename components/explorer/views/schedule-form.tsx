'use client';

import { useQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslations } from 'use-intl';
import { useFormats } from '@/components/i18n/use-formats';
import { usePeople } from '@/components/people/use-people';
import {
  REPORT_CADENCES,
  type PersonRef,
  type ReportCadence,
  type ReportSchedule,
  type ReportScheduleInput,
} from '@/lib/contract/alerts';
import type { AccountInfo } from '@/lib/contract/people';
import type { SavedView } from '@/lib/contract/views';
import { ApiFailure } from '@/lib/explorer/api-failure';
import { canonicalZone, viewerZone, zoneChoices } from '@/lib/explorer/zones';
import { callApi } from '@/lib/people/api-client';
import { useFailureText } from '../shared/use-failure-text';
import styles from './saved-views.module.css';

const WEEKDAYS = ['1', '2', '3', '4', '5', '6', '7'] as const;
const DAYS = Array.from({ length: 28 }, (_, i) => i + 1);
const path = (id: string) => `/api/settings/views/${encodeURIComponent(id)}/schedule`;

/** The view's schedule, or null when it is not sent (404 `schedule: …`). */
async function fetchSchedule(id: string, signal: AbortSignal): Promise<ReportSchedule | null> {
  try {
    return await callApi<ReportSchedule>(path(id), { signal });
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 404 && error.detail.startsWith('schedule: ')) return null;
    throw error;
  }
}

type Props = { view: SavedView; onDone: () => void; onSaid: (text: string) => void };

/**
 * **Send on a schedule** for one saved view: daily, weekly on a weekday or monthly on a day, at a time in a
 * zone (the person's own unless changed), to people of the organisation; it says when the next report goes out.
 */
export function ScheduleForm({ view, onDone, onSaid }: Props) {
  const t = useTranslations('reports.schedule');
  const f = useFormats();
  const failureText = useFailureText();
  const client = useQueryClient();
  const key = ['settings', 'views', view.id, 'schedule'];
  const schedule = useQuery<ReportSchedule | null, ApiFailure>({
    queryKey: key,
    queryFn: ({ signal }) => fetchSchedule(view.id, signal),
    retry: false,
  });
  const people = usePeople();
  const account = useQuery<AccountInfo, ApiFailure>({
    queryKey: ['account'],
    queryFn: ({ signal }) => callApi('/api/account', { signal }),
    retry: false,
  });
  const save = useMutation<ReportSchedule, ApiFailure, ReportScheduleInput>({
    mutationFn: (body) => callApi(path(view.id), { method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(key, saved),
  });
  const remove = useMutation<void, ApiFailure>({
    mutationFn: () => callApi(path(view.id), { method: 'DELETE' }),
    onSuccess: () => client.setQueryData(key, null),
  });

  const loading = schedule.isPending || people.isPending || account.isPending;
  const problem = schedule.error ?? people.error ?? save.error ?? remove.error;
  // The reader's notation names UTC itself; any other zone is said after the time.
  const nextRun = (s: ReportSchedule) => {
    const when = f.dateTime(Date.parse(s.nextRunAt), s.timeZone);
    return s.timeZone === 'UTC' ? when : `${when} (${s.timeZone})`;
  };

  return (
    <form
      className={styles.schedule}
      aria-label={t('formLabel', { name: view.name })}
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
      onSubmit={(e) => e.preventDefault()}
    >
      {loading ? (
        <p className={styles.muted}>{t('loading')}</p>
      ) : schedule.isError || people.isError ? null : (
        <ScheduleFields
          key={schedule.data?.nextRunAt ?? 'new'}
          saved={schedule.data ?? null}
          people={people.data?.people ?? []}
          me={account.data?.email ?? null}
          zone={canonicalZone(account.data?.timeZone) ?? viewerZone()}
          pending={save.isPending || remove.isPending}
          onSave={(input) =>
            save.mutate(input, {
              onSuccess: (saved) => onSaid(t('saved', { name: view.name, when: nextRun(saved) })),
            })
          }
          onRemove={() =>
            remove.mutate(undefined, { onSuccess: () => (onSaid(t('removed', { name: view.name })), onDone()) })
          }
          onCancel={onDone}
        />
      )}
      {schedule.data && (
        <p className={styles.next} role="status">
          {t('nextRun', { when: nextRun(schedule.data) })}
          {schedule.data.lastRunAt && schedule.data.lastResult && (
            <>
              <br />
              {t('lastRun', {
                when: f.dateTime(Date.parse(schedule.data.lastRunAt), schedule.data.timeZone),
                result: schedule.data.lastResult,
              })}
            </>
          )}
        </p>
      )}
      {problem && (
        <p role="alert" className={styles.problem}>
          {t('notSaved', { detail: failureText(problem) })}
        </p>
      )}
    </form>
  );
}

type FieldsProps = {
  saved: ReportSchedule | null;
  people: PersonRef[];
  me: string | null;
  zone: string;
  pending: boolean;
  onSave: (input: ReportScheduleInput) => void;
  onRemove: () => void;
  onCancel: () => void;
};

function ScheduleFields({ saved, people, me, zone, pending, onSave, onRemove, onCancel }: FieldsProps) {
  const t = useTranslations('reports.schedule');
  const id = useId();
  const [cadence, setCadence] = useState<ReportCadence>(saved?.cadence ?? 'weekly');
  const [weekday, setWeekday] = useState(saved?.weekday ?? 1);
  const [dayOfMonth, setDayOfMonth] = useState(saved?.dayOfMonth ?? 1);
  const [time, setTime] = useState(saved?.time ?? '07:00');
  const [timeZone, setTimeZone] = useState(saved?.timeZone ?? zone);
  const [recipients, setRecipients] = useState<string[]>(saved?.recipients ?? (me ? [me.toLowerCase()] : []));
  const zones = useMemo(() => zoneChoices(zone), [zone]);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);
  const toggle = (email: string, on: boolean) =>
    setRecipients((now) => (on ? [...now, email] : now.filter((r) => r !== email)));
  const submit = () =>
    onSave({
      cadence,
      ...(cadence === 'weekly' && { weekday }),
      ...(cadence === 'monthly' && { dayOfMonth }),
      time,
      timeZone: timeZone.trim(),
      recipients,
      ...(saved?.language && { language: saved.language }),
    });

  return (
    <>
      <span className={styles.fields}>
        <label className={styles.field}>
          {t('cadence')}
          <select ref={first} value={cadence} onChange={(e) => setCadence(e.target.value as ReportCadence)}>
            {REPORT_CADENCES.map((c) => (
              <option key={c} value={c}>
                {t(c)}
              </option>
            ))}
          </select>
        </label>
        {cadence === 'weekly' && (
          <label className={styles.field}>
            {t('weekday')}
            <select value={weekday} onChange={(e) => setWeekday(Number(e.target.value))}>
              {WEEKDAYS.map((d) => (
                <option key={d} value={d}>
                  {t(`weekdays.${d}`)}
                </option>
              ))}
            </select>
          </label>
        )}
        {cadence === 'monthly' && (
          <label className={styles.field}>
            {t('dayOfMonth')}
            <select value={dayOfMonth} onChange={(e) => setDayOfMonth(Number(e.target.value))}>
              {DAYS.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className={styles.field}>
          {t('time')}
          <input type="time" required value={time} onChange={(e) => setTime(e.target.value)} className={styles.time} />
        </label>
        <label className={styles.field}>
          {t('zone')}
          <input
            list={`${id}-zones`}
            value={timeZone}
            onChange={(e) => setTimeZone(e.target.value)}
            className={styles.zone}
          />
          <datalist id={`${id}-zones`}>
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </label>
      </span>
      <fieldset className={styles.recipients}>
        <legend>{t('recipients')}</legend>
        {people.length === 0 ? (
          <p className={styles.muted}>{t('noPeople')}</p>
        ) : (
          people.map((p) => {
            const email = p.email.toLowerCase();
            return (
              <label key={email} className={styles.person}>
                <input
                  type="checkbox"
                  checked={recipients.includes(email)}
                  onChange={(e) => toggle(email, e.target.checked)}
                />
                {p.name ? `${p.name} <${p.email}>` : p.email}
              </label>
            );
          })
        )}
      </fieldset>
      <span className={styles.actions}>
        <button
          type="button"
          className="button"
          disabled={pending || recipients.length === 0 || !/^\d\d:\d\d$/.test(time)}
          onClick={submit}
        >
          {pending ? t('saving') : t('save')}
        </button>
        {saved && (
          <button type="button" className="button" disabled={pending} onClick={onRemove}>
            {t('remove')}
          </button>
        )}
        <button type="button" className="button" onClick={onCancel}>
          {t('cancel')}
        </button>
        {recipients.length === 0 && <span className={styles.muted}>{t('pickRecipient')}</span>}
      </span>
    </>
  );
}
