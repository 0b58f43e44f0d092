import type { TargetHistoryEntry } from '@/lib/contract/targets';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore, TARGETS_SETTING } from '@/lib/server/settings';

/** The organisation's saved target sets, newest first (the first is the one in force): who saved each, and when. */
export const GET = route({ auth: true }, async ({ actor }) => {
  const history = await settingsStore().history(actor.organisation.id, TARGETS_SETTING);
  const entries: TargetHistoryEntry[] = history.map(({ id, savedAt, savedBy, value }) => ({
    id,
    savedAt,
    savedBy,
    targets: value,
  }));
  return Response.json({ entries });
});

export const { HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods({ GET });
