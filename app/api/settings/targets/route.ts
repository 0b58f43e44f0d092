import { MAX_CROP_NAME, MAX_CROP_TARGETS, type Targets, type TargetSettings } from '@/lib/contract/targets';
import { TargetSaveSchema } from '@/lib/contract/schemas';
import { otherMethods } from '@/lib/server/methods';
import { route } from '@/lib/server/route';
import { settingsStore, TARGETS_SETTING, type Saved } from '@/lib/server/settings';

/**
 * The largest target set the contract allows, written by any JSON encoder: 200 crops of 100-character names
 * at 3 bytes a character in UTF-8, each with three two-decimal numbers (about 65 bytes), plus room for
 * whitespace. About 90 KB, where every other body of ours stays under the wrapper's 8 KB.
 */
const MAX_SAVE_BYTES = Math.ceil((MAX_CROP_TARGETS * (MAX_CROP_NAME * 3 + 100)) / 1024 + 10) * 1024;

const answer = ({ value, updatedAt }: Saved<Targets>) => Response.json({ targets: value, updatedAt } satisfies TargetSettings);

/** The signed-in organisation's targets (the defaults, `updatedAt: null`, until it saves some). */
export const GET = route({ auth: true }, async ({ session }) => answer(await settingsStore().get(session.clientId, TARGETS_SETTING)));

/**
 * Saves the organisation's targets for everyone signed in to it. Same-origin only (the wrapper's check of
 * every write); 409 when `expectedUpdatedAt` is not the stored version.
 */
export const PUT = route({ auth: true, body: TargetSaveSchema, maxBodyBytes: MAX_SAVE_BYTES }, async ({ session, body }) =>
  answer(await settingsStore().put(session.clientId, TARGETS_SETTING, body.targets, body.expectedUpdatedAt)),
);

export const { HEAD, OPTIONS, POST, PATCH, DELETE } = otherMethods({ GET, PUT });
