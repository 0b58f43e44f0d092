import type { ConnectionInfo } from '@/lib/contract/people';
import { AppError } from '@/lib/server/http/app-error';
import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { dropToken, testCredentials } from '@/lib/server/org/upstream';
import { ConnectionChangeSchema } from '@/lib/server/people/api-schemas';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** The organisation's connection to the Batch Data Service: the client ID and who set the secret when; never the secret. */
export const GET = route({ auth: 'admin', what: 'seeing the connection' }, async ({ actor }) =>
  Response.json((await settingsStore().organisations.connection(actor.organisation.id)) satisfies ConnectionInfo),
);

/**
 * Replaces the secret (and the client ID, when given). The new credentials are tried at the service first (a
 * real sign-in): refused or unreachable, nothing is saved (422, 503). Saved, the token fetched with the old
 * ones is dropped, and the activity log says who changed the connection when (never the secret).
 */
export const PUT = route(
  { auth: 'admin', what: 'changing the connection', body: ConnectionChangeSchema },
  async (ctx) => {
    const organisations = settingsStore().organisations;
    const organisationId = ctx.actor.organisation.id;
    const before = await organisations.connection(organisationId);
    const next = { clientId: ctx.body.clientId ?? before.clientId, clientSecret: ctx.body.clientSecret };
    const verdict = await testCredentials(next, organisationId);
    if (!verdict.ok) throw new AppError('invalid_input', verdict.detail, { field: 'clientSecret' });
    const old = await organisations.credentials(organisationId).catch(() => null);
    await organisations.setCredentials(organisationId, next, ctx.actor.person.id);
    if (old) await dropToken(old);
    const after = await organisations.connection(organisationId);
    await recordActivity(ctx, 'connection_changed', {
      subject: 'connection',
      before: { clientId: before.clientId, secretSetAt: before.secretSetAt },
      after: { clientId: after.clientId, secretSetAt: after.secretSetAt },
    });
    return Response.json(after satisfies ConnectionInfo);
  },
);

export const { HEAD, OPTIONS, POST, PATCH, DELETE } = otherMethods({ GET, PUT });
