import type { ActivityEntry } from '@/lib/contract/people';
import { csvRow } from '@/lib/csv';
import { otherMethods } from '@/lib/server/http/methods';
import { ActivityQuerySchema } from '@/lib/server/people/api-schemas';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

const CSV_COLUMNS = ['at', 'actor_email', 'actor_name', 'action', 'subject', 'before', 'after', 'address'];
const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/**
 * The organisation's activity log, newest first, filtered by time (`from`, `to`: a day or an instant),
 * `action` and `actor` (an e-mail address): JSON, or CSV (`format=csv`, RFC 4180, formulas neutralized).
 */
export const GET = route(
  { auth: 'admin', what: 'reading the activity log', query: ActivityQuerySchema },
  async ({ actor, query }) => {
    const { format, ...filter } = query;
    const entries = await settingsStore().audit.list(actor.organisation.id, filter);
    if (format === 'json') {
      return Response.json({
        entries: entries.map(({ at, actor: who, action, subject, before, after, address }) => ({
          at,
          actor: who,
          action,
          subject,
          before,
          after,
          address,
        })) satisfies ActivityEntry[],
      });
    }
    const body =
      csvRow(CSV_COLUMNS) +
      entries
        .map((e) =>
          csvRow([
            e.at,
            e.actor.email,
            e.actor.name,
            e.action,
            e.subject,
            json(e.before),
            json(e.after),
            e.address ?? '',
          ]),
        )
        .join('');
    const day = new Date().toISOString().slice(0, 10);
    return new Response(body, {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="activity-${actor.organisation.slug}-${day}.csv"`,
      },
    });
  },
);

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
