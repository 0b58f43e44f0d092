import type { ConnectionTest } from '@/lib/contract/people';
import { otherMethods } from '@/lib/server/http/methods';
import { testCredentials } from '@/lib/server/org/upstream';
import { route } from '@/lib/server/http/route';
import { settingsStore } from '@/lib/server/settings';

/** A real sign-in at the service with the stored credentials (never a cached token), and its verdict in words. */
export const POST = route({ auth: 'admin', what: 'testing the connection' }, async ({ actor }) => {
  const credentials = await settingsStore()
    .organisations.credentials(actor.organisation.id)
    .catch((error: { code?: string; message?: string }) => {
      if (error.code === 'not_connected') return { problem: error.message ?? '' };
      throw error;
    });
  const verdict: ConnectionTest =
    'problem' in credentials
      ? { ok: false, detail: credentials.problem }
      : await testCredentials(credentials, actor.organisation.id);
  return Response.json(verdict);
});

export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ POST });
