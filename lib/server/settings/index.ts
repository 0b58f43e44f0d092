import 'server-only';
import { DEFAULT_TARGETS, type Targets } from '../../contract/targets';
import { TargetsSchema } from '../../contract/schemas';
import { getConfig } from '../config';
import { SettingsStore, type Setting } from './settings-store';

export { SettingsStore, type DatabaseState, type Saved, type Setting } from './settings-store';
export type { SavedViewsStore } from './saved-views-store';
export type { DatabasePlace } from './database';

/** The organisation's QA targets (lib/contract/targets.ts). */
export const TARGETS_SETTING: Setting<Targets> = { name: 'targets', schema: TargetsSchema, fallback: DEFAULT_TARGETS };

const holder = globalThis as unknown as { __settingsStore?: SettingsStore };

/**
 * The process's settings store: PostgreSQL when DATABASE_URL is set (any number of instances share it), else
 * the embedded PGlite in SETTINGS_DATA_DIR, which one instance alone may open.
 */
export function settingsStore(): SettingsStore {
  const { databaseUrl, settingsDataDir } = getConfig();
  holder.__settingsStore ??= SettingsStore.open(databaseUrl ? { databaseUrl } : { dataDir: settingsDataDir });
  return holder.__settingsStore;
}

/** Closes the store if this process opened it (at shutdown: the embedded database writes everything out). */
export async function closeSettingsStore(): Promise<void> {
  const store = holder.__settingsStore;
  holder.__settingsStore = undefined;
  await store?.close();
}
