import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { settingsStore } from '@/lib/server/settings';
import { bffForFile } from '../helpers/bff';
import { refusesUnstorableText } from '../helpers/unstorable-text';

/** The routes that store text, on the embedded settings store (PGlite), in a directory of this file's own. */
const dir = mkdtempSync(join(tmpdir(), 'unstorable-pglite-'));
bffForFile({ SIGNIN_ATTEMPTS_PER_IP: '100000', SETTINGS_DATA_DIR: join(dir, 'data') });
afterAll(async () => {
  await settingsStore().close();
  rmSync(dir, { recursive: true, force: true });
});

refusesUnstorableText();
