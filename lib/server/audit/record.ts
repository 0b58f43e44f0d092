import 'server-only';
import type { Actor } from '../auth/actor';
import { errorFields, logLine } from '../logging';
import { settingsStore } from '../settings';
import type { AuditAction, AuditRecord } from './audit-store';

/** The request an entry comes from: its actor (who, in which organisation, signed in how) and address. */
export type ActivitySource = { actor: Actor; address: string };

export type ActivityDetail = { subject: string; before?: unknown; after?: unknown };

/**
 * Appends an entry to the activity log for what `source.actor` just did in their organisation. The action has
 * happened already: an entry that cannot be written is logged as an error (with the action, never its
 * contents) rather than turning a done change into a failed answer.
 */
export async function recordActivity(
  source: ActivitySource,
  action: AuditAction,
  detail: ActivityDetail,
  organisationId: string | null = source.actor.organisation.id,
): Promise<void> {
  const { person, session } = source.actor;
  await recordEntry({
    organisationId,
    actor: { id: person.id, email: person.email, name: person.name },
    action,
    address: source.address,
    method: session.method,
    ...detail,
  });
}

/** An entry for whoever acts outside a session (a sign-in, a link used): the actor named as they are known. */
export async function recordEntry(entry: AuditRecord): Promise<void> {
  try {
    await settingsStore().audit.record(entry);
  } catch (error) {
    logLine('error', 'activity log: an entry was not written', {
      action: entry.action,
      organisation_id: entry.organisationId,
      ...errorFields(error),
    });
  }
}
