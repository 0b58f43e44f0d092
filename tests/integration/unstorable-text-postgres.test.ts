import { afterAll, beforeAll } from 'vitest';
import { settingsStore } from '@/lib/server/settings';
import { bffForFile } from '../helpers/bff';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { refusesUnstorableText } from '../helpers/unstorable-text';

/** The routes that store text, on a real PostgreSQL 15 (DATABASE_URL), started for this file. */
bffForFile({ SIGNIN_ATTEMPTS_PER_IP: '100000' });
let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
  // Read at the first request, after this.
  process.env.DATABASE_URL = await server.createDatabase('unstorable');
});
afterAll(async () => {
  await settingsStore().close();
  await server?.stop();
});

refusesUnstorableText();
