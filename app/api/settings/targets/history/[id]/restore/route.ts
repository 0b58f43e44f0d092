import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { pathSegment } from '@/lib/server/input/path-segment';
import { route } from '@/lib/server/http/route';
import { settingsStore, targetSettingsOf, TARGETS_SETTING } from '@/lib/server/settings';

/** Makes an earlier saved target set the organisation's targets again (a save of its own, in the history and the activity log). */
export const POST = route({ auth: 'editor', what: 'restoring earlier targets' }, async (ctx) => {
  const store = settingsStore();
  const { organisation, person } = ctx.actor;
  const entry = await store.historyEntry(organisation.id, TARGETS_SETTING, pathSegment(ctx.request, -2));
  const before = await store.get(organisation.id, TARGETS_SETTING);
  const saved = await store.put(organisation.id, TARGETS_SETTING, entry.value, undefined, person.id);
  await recordActivity(ctx, 'targets_restored', {
    subject: 'targets',
    before: before.updatedAt ? before.value : null,
    after: saved.value,
  });
  return Response.json(targetSettingsOf(saved));
});

export const { GET, HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ POST });
