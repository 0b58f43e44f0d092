import { MAX_CROP_NAME, MAX_CROP_TARGETS } from '@/lib/contract/targets';
import { TargetSaveSchema } from '@/lib/contract/schemas';
import { recordActivity } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { settingsStore, targetSettingsOf, TARGETS_SETTING } from '@/lib/server/settings';

/**
 * The largest target set the contract allows, written by any JSON encoder: 200 crops of 100-character names
 * at 3 bytes a character in UTF-8, each with three two-decimal numbers (about 65 bytes), plus room for
 * whitespace. About 90 KB, where every other body of ours stays under the wrapper's 8 KB.
 */
const MAX_SAVE_BYTES = Math.ceil((MAX_CROP_TARGETS * (MAX_CROP_NAME * 3 + 100)) / 1024 + 10) * 1024;

/** The organisation's targets (the defaults, `updatedAt: null`, until it saves some), and who saved them last. */
export const GET = route({ auth: true }, async ({ actor }) =>
  Response.json(targetSettingsOf(await settingsStore().get(actor.organisation.id, TARGETS_SETTING))),
);

/**
 * Saves the organisation's targets for everyone in it (editors and administrators). Same-origin only (the
 * wrapper's check of every write); 409 naming the colleague when `expectedUpdatedAt` is not the stored version.
 */
export const PUT = route(
  { auth: 'editor', what: 'saving the targets', body: TargetSaveSchema, maxBodyBytes: MAX_SAVE_BYTES },
  async (ctx) => {
    const store = settingsStore();
    const { organisation, person } = ctx.actor;
    const before = await store.get(organisation.id, TARGETS_SETTING);
    const saved = await store.put(
      organisation.id,
      TARGETS_SETTING,
      ctx.body.targets,
      ctx.body.expectedUpdatedAt,
      person.id,
    );
    await recordActivity(ctx, 'targets_changed', {
      subject: 'targets',
      before: before.updatedAt ? before.value : null,
      after: saved.value,
    });
    return Response.json(targetSettingsOf(saved));
  },
);

export const { HEAD, OPTIONS, POST, PATCH, DELETE } = otherMethods({ GET, PUT });
