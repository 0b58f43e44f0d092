import type { LinkInfo } from '@/lib/contract/people';
import { AppError } from '@/lib/server/http/app-error';
import { recordEntry } from '@/lib/server/audit/record';
import { startSession } from '@/lib/server/auth/start-session';
import { otherMethods } from '@/lib/server/http/methods';
import { pathSegment } from '@/lib/server/input/path-segment';
import { LinkUseSchema } from '@/lib/server/people/api-schemas';
import { hashPassword } from '@/lib/server/people/passwords';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

// Used, expired, of a person since removed or disabled, or never issued: all read alike.
const gone = () => new AppError('not_found', 'this link is not valid any more', { field: 'token' });

/** What a valid invite or reset link is for: whose, and which organisation. */
export const GET = route({ auth: false, people: true }, async ({ request }) => {
  const link = await settingsStore().links.peek(pathSegment(request, -1));
  if (!link) throw gone();
  return Response.json(link satisfies LinkInfo);
});

/**
 * Uses the link, once: sets the password (an invite also the name) and signs the person in (204 and the
 * cookie). The link and the password change are one transaction: two uses at once, one wins.
 */
export const POST = route(
  { auth: false, people: true, body: LinkUseSchema },
  async ({ request, body, cookies, address }) => {
    const store = settingsStore();
    const hash = await hashPassword(body.password);
    const used = await store.links.transaction(async (trx) => {
      const link = await store.links.use(trx, pathSegment(request, -1));
      if (!link) return null;
      await store.people.setPassword(link.personId, hash, trx);
      return link;
    });
    if (!used) throw gone();
    const person = (await store.people.byId(used.personId))!;
    if (used.kind === 'invite' && body.name) await store.people.updateProfile(person.id, { name: body.name });
    await recordEntry({
      organisationId: used.organisationId,
      actor: { id: person.id, email: person.email, name: body.name ?? person.name },
      action: 'password_set',
      subject: person.email,
      after: { link: used.kind },
      address,
      method: 'password',
    });
    await startSession({ personId: person.id, method: 'password', request, cookies });
    return new Response(null, { status: 204 });
  },
);

export const { HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ GET, POST });
