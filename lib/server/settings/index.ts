import 'server-only';
import { DEFAULT_TARGETS, type Targets, type TargetSettings } from '../../contract/targets';
import { TargetsSchema } from '../../contract/schemas';
import { getConfig } from '../config';
import { CredentialsCipher } from '../org/credentials-crypto';
import { SettingsStore, type Saved, type Setting } from './settings-store';

export {
  SettingsStore,
  type DatabaseState,
  type HistoryEntry,
  type Saved,
  type Saver,
  type Setting,
} from './settings-store';
export type { SavedViewsStore } from './saved-views-store';
export type { DatabasePlace } from './database';

/** The organisation's QA targets (lib/contract/targets.ts), every saved version kept for History and Restore. */
export const TARGETS_SETTING: Setting<Targets> = {
  name: 'targets',
  schema: TargetsSchema,
  fallback: DEFAULT_TARGETS,
  history: true,
};

/** The targets as `/api/settings/targets` answers them. */
export const targetSettingsOf = ({ value, updatedAt, updatedBy }: Saved<Targets>): TargetSettings => ({
  targets: value,
  updatedAt,
  updatedBy,
});

const holder = globalThis as unknown as { __settingsStore?: SettingsStore; __cipher?: CredentialsCipher };

/** The process's cipher for the organisations' secrets, from CREDENTIALS_KEY and CREDENTIALS_KEY_PREVIOUS. */
export function credentialsCipher(): CredentialsCipher {
  const { credentialsKey, previousCredentialsKeys } = getConfig();
  holder.__cipher ??= new CredentialsCipher(credentialsKey, previousCredentialsKeys);
  return holder.__cipher;
}

/**
 * The process's database: PostgreSQL when DATABASE_URL is set (any number of instances share it), else
 * the embedded PGlite in SETTINGS_DATA_DIR, which one instance alone may open.
 */
export function settingsStore(): SettingsStore {
  const { databaseUrl, settingsDataDir } = getConfig();
  holder.__settingsStore ??= SettingsStore.open(
    databaseUrl ? { databaseUrl } : { dataDir: settingsDataDir },
    credentialsCipher,
  );
  return holder.__settingsStore;
}

/**
 * Closes the store if this process opened it (at shutdown: the embedded database writes everything out), after
 * the job runner (lib/server/jobs/), whose running jobs still use it.
 */
export async function closeSettingsStore(): Promise<void> {
  const jobs = (globalThis as { __jobRunner?: { stop(): Promise<void> } }).__jobRunner;
  (globalThis as { __jobRunner?: unknown }).__jobRunner = undefined;
  await jobs?.stop().catch(() => undefined);
  const store = holder.__settingsStore;
  holder.__settingsStore = undefined;
  await store?.close();
}
