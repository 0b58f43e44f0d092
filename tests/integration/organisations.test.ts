import { readdirSync, readFileSync, statSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CredentialsCipher, credentialsKeyId, parseCredentialsKey } from '@/lib/server/org/credentials-crypto';
import { provision } from '@/lib/server/org/provisioning';
import { openDatabase } from '@/lib/server/settings/database';
import { migrateTo } from '@/lib/server/settings/migrations';
import { SettingsStore, TARGETS_SETTING } from '@/lib/server/settings';
import { passwordMatches } from '@/lib/server/people/passwords';
import { startPostgres, type PostgresServer } from '../helpers/postgres-server';
import { openStore, testCipher } from '../helpers/store';

/** A secret no other row holds, to look for in the database's files. */
const SECRET = 'a-client-secret-to-look-for-7f3a9c';
const key = (fill: number) => parseCredentialsKey(Buffer.alloc(32, fill).toString('base64'), 'CREDENTIALS_KEY');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
/** The files under `dir` that hold `text` (as UTF-8 bytes), however the database laid them out. */
const holding = (dir: string, text: string) =>
  filesUnder(dir).filter((file) => readFileSync(file).includes(Buffer.from(text, 'utf8')));

describe('credentials at rest (AES-256-GCM)', () => {
  it('writes v1.<keyId>.<iv>.<sealed>, the key id from a hash of the key, opens only for its own organisation', () => {
    const cipher = new CredentialsCipher(key(1));
    const sealed = cipher.encrypt(SECRET, 'org-a');
    expect(sealed).toMatch(/^v1\.[0-9a-f]{12}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(sealed.split('.')[1]).toBe(credentialsKeyId(key(1).key));
    expect(sealed).not.toContain(SECRET);
    expect(cipher.encrypt(SECRET, 'org-a')).not.toBe(sealed); // a new IV each time
    expect(cipher.decrypt(sealed, 'org-a')).toBe(SECRET);
    expect(() => cipher.decrypt(sealed, 'org-b')).toThrow(/another organisation/);
    const [v, id, iv, body] = sealed.split('.');
    const flipped = `${v}.${id}.${iv}.${body!.slice(0, -2)}${body!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(() => cipher.decrypt(flipped, 'org-a')).toThrow();
  });

  it('rotation: a previous key decrypts (whatever its place in the list), is reported stale, and nothing is said of the secret', () => {
    const old = new CredentialsCipher(key(1));
    const sealed = old.encrypt(SECRET, 'org-a');
    const rotated = new CredentialsCipher(key(2), [key(3), key(1)]);
    expect(rotated.decrypt(sealed, 'org-a')).toBe(SECRET);
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.encrypt(SECRET, 'org-a'))).toBe(false);
    const error = (() => {
      try {
        new CredentialsCipher(key(2)).decrypt(sealed, 'org-a');
      } catch (e) {
        return String(e);
      }
    })();
    expect(error).toMatch(/neither CREDENTIALS_KEY nor in CREDENTIALS_KEY_PREVIOUS/);
    expect(error).not.toContain(SECRET);
  });
});

describe('organisations in the embedded database (PGlite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orgs-pglite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the secret is nowhere in the database’s files in clear, and reads back decrypted for the upstream client only', async () => {
    const store = openStore({ dataDir: join(dir, 'secret') });
    const org = await store.organisations.create({ name: 'Acme Seeds', clientId: 'acme-client', clientSecret: SECRET });
    expect(await store.organisations.credentials(org.id)).toEqual({ clientId: 'acme-client', clientSecret: SECRET });
    expect(JSON.stringify(await store.organisations.connection(org.id))).not.toContain(SECRET);
    await store.close();
    expect(holding(join(dir, 'secret'), SECRET)).toEqual([]);
    // The control: the same files do hold what is stored in clear.
    expect(holding(join(dir, 'secret'), 'acme-client').length).toBeGreaterThan(0);
  });

  it('re-encrypts what is under a previous key at start (client secrets, webhook secrets); after it, the old key is needed no more', async () => {
    const place = { dataDir: join(dir, 'rotation') };
    const before = SettingsStore.open(place, () => new CredentialsCipher(key(1)));
    const org = await before.organisations.create({
      name: 'Rotated',
      clientId: 'rotated-client',
      clientSecret: SECRET,
    });
    // An alert rule's webhook secret is under the same key, and must survive the rotation too.
    const editor = await before.people.create({ email: 'editor@rotated.example' });
    await before.people.setMembership(org.id, editor.id, 'editor');
    const hookSecret = 'webhook-secret-of-the-rule-0123';
    const rule = await before.alerts.create(
      org.id,
      { personId: editor.id, role: 'editor' },
      {
        name: 'Short batches',
        when: 'misses-target',
        recipients: [],
        webhooks: [{ url: 'http://127.0.0.1:9/hook', format: 'json', secret: hookSecret }],
        delivery: 'immediate',
      },
      { allowPrivate: true },
    );
    await before.close();
    const after = SettingsStore.open(place, () => new CredentialsCipher(key(2), [key(1)]));
    expect(await after.organisations.reencryptStale()).toBe(1);
    expect(await after.organisations.reencryptStale()).toBe(0);
    expect(await after.alerts.reencryptStale()).toBe(1);
    expect(await after.alerts.reencryptStale()).toBe(0);
    const row = await after.db
      .selectFrom('organisations')
      .select('secret_ciphertext')
      .where('id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_ciphertext!.split('.')[1]).toBe(key(2).id);
    await after.close();
    const current = SettingsStore.open(place, () => new CredentialsCipher(key(2)));
    expect((await current.organisations.credentials(org.id)).clientSecret).toBe(SECRET);
    const [hook] = (await current.alerts.rule(org.id, rule.id))!.webhooks;
    expect(current.alerts.webhookSecret(org.id, hook!)).toBe(hookSecret);
    await current.close();
  });

  it('the migration moves settings and views keyed by a client ID to an organisation of that client ID; provisioning then fills it in', async () => {
    const place = { dataDir: join(dir, 'migration') };
    const old = openDatabase(place);
    await migrateTo(old, '0002-saved-views');
    const targets = { general: { germination: 85, usable: null, cv: null }, crops: {} };
    await sql`insert into organisation_settings (client_id, name, value) values ('demo-client', 'targets', ${JSON.stringify(targets)}::jsonb)`.execute(
      old,
    );
    await sql`insert into saved_views (client_id, name, query, is_default) values ('demo-client', 'Warnings', 'warn=1', true), ('spécial+client/=&%', 'Lettuce', 'crop=Lettuce', false)`.execute(
      old,
    );
    await old.destroy();

    const store = openStore(place);
    const organisations = await store.organisations.list();
    expect(organisations.map((o) => [o.slug, o.name, o.clientId])).toEqual([
      ['demo-client', 'demo-client', 'demo-client'],
      ['special-client', 'spécial+client/=&%', 'spécial+client/=&%'],
    ]);
    const demo = organisations[0]!;
    expect((await store.get(demo.id, TARGETS_SETTING)).value).toEqual(targets);
    const someone = { personId: '00000000-0000-4000-8000-000000000000', role: 'viewer' as const };
    expect(await store.views.list(demo.id, someone)).toEqual([
      expect.objectContaining({ name: 'Warnings', isDefault: true, shared: true, owner: null }),
    ]);
    expect((await store.views.defaultView(demo.id))?.query).toBe('warn=1');
    // No secret yet: its batches cannot be loaded until one is set, and it says so.
    await expect(store.organisations.credentials(demo.id)).rejects.toMatchObject({ code: 'not_connected' });

    // Provisioning names that client ID: the placeholder gets its name, slug and secret; the settings stay its own.
    await provision(
      store,
      {
        organisation: {
          clientId: 'demo-client',
          clientSecret: 'demo-secret',
          name: 'Greenfield Seeds',
          slug: 'greenfield',
        },
      },
      {},
    );
    expect(await store.organisations.bySlug('greenfield')).toMatchObject({ id: demo.id, name: 'Greenfield Seeds' });
    expect((await store.organisations.credentials(demo.id)).clientSecret).toBe('demo-secret');
    expect((await store.get(demo.id, TARGETS_SETTING)).value).toEqual(targets);
    await store.close();
  });

  it('provisioning creates what is missing and never overwrites or deletes what people changed', async () => {
    const store = openStore({ dataDir: join(dir, 'provisioning') });
    const file = join(dir, 'provisioning.json');
    writeFileSync(
      file,
      JSON.stringify({
        organisations: [
          { name: 'Hillside Growers', slug: 'hillside', clientId: 'other-client', clientSecretEnv: 'HILLSIDE_SECRET' },
          { name: 'Drift Nursery', slug: 'drift', clientId: 'drift-client', clientSecret: 'drift-secret' },
        ],
        people: [
          {
            email: 'Pat@Hillside.example',
            name: 'Pat',
            password: 'a long first password',
            roles: { hillside: 'editor', drift: 'viewer' },
          },
        ],
      }),
    );
    const config = {
      organisation: { clientId: 'demo-client', clientSecret: 'demo-secret', name: 'Greenfield Seeds' },
      admin: { email: 'it@greenfield.example', password: 'the first admin password' },
      file,
    };
    const first = await provision(store, config, { HILLSIDE_SECRET: 'other-secret' });
    expect(first).toMatchObject({ organisations: 3, people: 2, memberships: 3 });
    const greenfield = (await store.organisations.byClientId('demo-client'))!;
    const it_ = (await store.people.byEmail('it@greenfield.example'))!;
    expect(await store.people.roleIn(greenfield.id, it_.id)).toBe('admin');
    expect(await passwordMatches(it_.passwordHash, 'the first admin password')).toBe(true);
    expect(
      (await store.organisations.credentials((await store.organisations.bySlug('hillside'))!.id)).clientSecret,
    ).toBe('other-secret');

    // People change things in the app: a role, a name, a password, the connection.
    const pat = (await store.people.byEmail('pat@hillside.example'))!;
    const hillside = (await store.organisations.bySlug('hillside'))!;
    await store.people.changeRole(hillside.id, pat.id, 'admin');
    await store.people.updateProfile(pat.id, { name: 'Patricia' });
    await store.organisations.setCredentials(
      hillside.id,
      { clientId: 'other-client', clientSecret: 'rotated-secret' },
      pat.id,
    );
    const drift = (await store.organisations.bySlug('drift'))!;
    await store.people.removeMember(drift.id, pat.id);

    // The next start: the same variables and file, and nothing of theirs is undone.
    const again = await provision(
      store,
      { ...config, admin: { email: 'it@greenfield.example', password: 'another password altogether' } },
      { HILLSIDE_SECRET: 'other-secret' },
    );
    expect(again).toMatchObject({ organisations: 0, people: 0 });
    expect(await store.people.roleIn(hillside.id, pat.id)).toBe('admin');
    expect((await store.people.byId(pat.id))!.name).toBe('Patricia');
    expect((await store.organisations.credentials(hillside.id)).clientSecret).toBe('rotated-secret');
    expect(
      await passwordMatches(
        (await store.people.byEmail('it@greenfield.example'))!.passwordHash,
        'the first admin password',
      ),
    ).toBe(true);
    expect((await store.organisations.list()).map((o) => o.slug).sort()).toEqual([
      'drift',
      'greenfield-seeds',
      'hillside',
    ]);
    // A membership taken away in the app stays away: someone who exists is the app's to manage.
    expect(again.memberships).toBe(0);
    expect(await store.people.roleIn(drift.id, pat.id)).toBeNull();

    // The variables make the first organisation only: with organisations there, another client ID creates none.
    await provision(store, { organisation: { clientId: 'new-client', clientSecret: 'x', name: 'Late' } }, {});
    expect(await store.organisations.byClientId('new-client')).toBeNull();
    await store.close();
  });

  it('a provisioning file of a wrong shape is refused naming where, never quoting a value', async () => {
    const store = openStore({ dataDir: join(dir, 'bad-file') });
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        organisations: [{ name: 'X', clientId: 'x', clientSecret: 'do-not-quote-me', slug: 'Not A Slug' }],
      }),
    );
    await expect(provision(store, { file }, {})).rejects.toThrow(
      /PROVISIONING_FILE .*bad\.json: organisations\[0\]\.slug: must be lower-case letters/,
    );
    await expect(provision(store, { file }, {})).rejects.not.toThrow(/do-not-quote-me/);
    await store.close();
  });
});

describe('organisations on PostgreSQL', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.stop());

  it('the secret is nowhere in the data directory in clear (tables, WAL), after a checkpoint', async () => {
    const store = SettingsStore.open({ databaseUrl: await server.createDatabase('secrets') }, () => testCipher);
    const org = await store.organisations.create({
      name: 'Acme Seeds',
      clientId: 'acme-pg-client',
      clientSecret: SECRET,
    });
    await store.organisations.setCredentials(org.id, { clientId: 'acme-pg-client', clientSecret: `${SECRET}-2` }, null);
    await sql`checkpoint`.execute(store.db);
    await store.close();
    expect(holding(server.dataDir, SECRET)).toEqual([]);
    expect(holding(server.dataDir, 'acme-pg-client').length).toBeGreaterThan(0);
  });
});
