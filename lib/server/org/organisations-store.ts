import 'server-only';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { AppError } from '../http/app-error';
import { logLine } from '../logging';
import type { Guard, SettingsDb } from '../settings/database';
import type { CredentialsCipher } from './credentials-crypto';
import { freeSlug, slugOf } from './slug';

/** An organisation as requests carry it: never its secret. */
export type Organisation = { id: string; slug: string; name: string; clientId: string };

/** The organisation's connection as its administrators see it: who set the secret and when, never the secret. */
export type Connection = {
  clientId: string;
  secretSetAt: string | null;
  secretSetBy: { email: string; name: string } | null;
};

export type NewOrganisation = { name: string; clientId: string; clientSecret?: string; slug?: string };

const COLUMNS = ['id', 'slug', 'name', 'client_id'] as const;
const organisationOf = (row: { id: string; slug: string; name: string; client_id: string }): Organisation => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  clientId: row.client_id,
});

/** A secret was needed and none is kept: the organisation's administrator must set one. */
export const noSecret = () =>
  new AppError(
    'not_connected',
    'the organisation has no client secret for the Batch Data Service yet; an administrator sets it under Connection',
    {
      field: 'connection',
    },
  );

/**
 * The organisations and their Batch Data Service credentials. The secret is encrypted here on the way in and
 * decrypted only for the upstream client (lib/server/org/upstream.ts): nothing else reads it.
 */
export class OrganisationsStore {
  constructor(
    private readonly db: SettingsDb,
    private readonly guard: Guard,
    private readonly cipher: () => CredentialsCipher,
  ) {}

  async list(): Promise<Organisation[]> {
    const rows = await this.guard(() =>
      this.db
        .selectFrom('organisations')
        .select(COLUMNS)
        .orderBy(sql`lower(name)`)
        .execute(),
    );
    return rows.map(organisationOf);
  }

  async bySlug(slug: string): Promise<Organisation | null> {
    const row = await this.guard(() =>
      this.db.selectFrom('organisations').select(COLUMNS).where('slug', '=', slug).executeTakeFirst(),
    );
    return row ? organisationOf(row) : null;
  }

  async byClientId(clientId: string): Promise<(Organisation & { hasSecret: boolean }) | null> {
    const row = await this.guard(() =>
      this.db
        .selectFrom('organisations')
        .select([...COLUMNS, 'secret_ciphertext'])
        .where('client_id', '=', clientId)
        .executeTakeFirst(),
    );
    return row ? { ...organisationOf(row), hasSecret: row.secret_ciphertext !== null } : null;
  }

  async count(): Promise<number> {
    const { n } = await this.guard(() =>
      this.db
        .selectFrom('organisations')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow(),
    );
    return Number(n);
  }

  /** A new organisation; its slug from `slug` or its name, made unique. */
  async create(input: NewOrganisation, by: string | null = null): Promise<Organisation> {
    const id = randomUUID();
    const taken = new Set(
      (await this.guard(() => this.db.selectFrom('organisations').select('slug').execute())).map((r) => r.slug),
    );
    const slug = freeSlug(input.slug ?? slugOf(input.name), (s) => taken.has(s));
    const secret = input.clientSecret
      ? {
          secret_ciphertext: this.cipher().encrypt(input.clientSecret, id),
          secret_set_at: new Date(),
          secret_set_by: by,
        }
      : {};
    const row = await this.guard(() =>
      this.db
        .insertInto('organisations')
        .values({ id, slug, name: input.name, client_id: input.clientId, ...secret })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow(),
    );
    return organisationOf(row);
  }

  /**
   * An organisation the migration made from a client ID (no secret, its name the client ID) gets its real name,
   * slug and secret; one that has a secret is never touched. True when it was filled.
   */
  async fillPlaceholder(organisationId: string, input: NewOrganisation & { clientSecret: string }): Promise<boolean> {
    const taken = new Set(
      (
        await this.guard(() =>
          this.db.selectFrom('organisations').select('slug').where('id', '!=', organisationId).execute(),
        )
      ).map((r) => r.slug),
    );
    const slug = freeSlug(input.slug ?? slugOf(input.name), (s) => taken.has(s));
    const result = await this.guard(() =>
      this.db
        .updateTable('organisations')
        .set({
          name: input.name,
          slug,
          secret_ciphertext: this.cipher().encrypt(input.clientSecret, organisationId),
          secret_set_at: new Date(),
        })
        .where('id', '=', organisationId)
        .where('secret_ciphertext', 'is', null)
        .executeTakeFirst(),
    );
    return result.numUpdatedRows > BigInt(0);
  }

  /** The client ID and the decrypted secret, for the upstream client only. */
  async credentials(organisationId: string): Promise<{ clientId: string; clientSecret: string }> {
    const row = await this.guard(() =>
      this.db
        .selectFrom('organisations')
        .select(['client_id', 'secret_ciphertext'])
        .where('id', '=', organisationId)
        .executeTakeFirst(),
    );
    if (!row?.secret_ciphertext) throw noSecret();
    try {
      return { clientId: row.client_id, clientSecret: this.cipher().decrypt(row.secret_ciphertext, organisationId) };
    } catch (error) {
      throw new AppError(
        'not_connected',
        'the organisation’s client secret cannot be read with this server’s CREDENTIALS_KEY; an administrator sets it again under Connection',
        {
          field: 'connection',
          cause: error,
        },
      );
    }
  }

  async connection(organisationId: string): Promise<Connection> {
    const row = await this.guard(() =>
      this.db
        .selectFrom('organisations as o')
        .leftJoin('people as p', 'p.id', 'o.secret_set_by')
        .select(['o.client_id', 'o.secret_set_at', 'p.email', 'p.name'])
        .where('o.id', '=', organisationId)
        .executeTakeFirstOrThrow(),
    );
    return {
      clientId: row.client_id,
      secretSetAt: row.secret_set_at?.toISOString() ?? null,
      secretSetBy: row.email ? { email: row.email, name: row.name ?? '' } : null,
    };
  }

  /** Replaces the credentials (already tested by the caller); the client ID stays unless a new one is given. */
  async setCredentials(
    organisationId: string,
    credentials: { clientId: string; clientSecret: string },
    by: string | null,
  ): Promise<void> {
    try {
      await this.guard(() =>
        this.db
          .updateTable('organisations')
          .set({
            client_id: credentials.clientId,
            secret_ciphertext: this.cipher().encrypt(credentials.clientSecret, organisationId),
            secret_set_at: new Date(),
            secret_set_by: by,
          })
          .where('id', '=', organisationId)
          .execute(),
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === '23505') {
        throw new AppError('conflict', 'another organisation of this dashboard has this client ID', {
          field: 'clientId',
        });
      }
      throw error;
    }
  }

  /** Re-encrypts every secret kept under an older key with the current one; the number re-encrypted. */
  async reencryptStale(): Promise<number> {
    const cipher = this.cipher();
    const rows = await this.guard(() =>
      this.db
        .selectFrom('organisations')
        .select(['id', 'secret_ciphertext'])
        .where('secret_ciphertext', 'is not', null)
        .execute(),
    );
    let count = 0;
    for (const row of rows) {
      if (!cipher.isStale(row.secret_ciphertext!)) continue;
      let secret: string;
      try {
        secret = cipher.decrypt(row.secret_ciphertext!, row.id);
      } catch {
        // Under a key this server no longer has: left as it is, and said (the organisation's requests say so too).
        logLine(
          'warn',
          'credentials: a client secret is under a key neither CREDENTIALS_KEY nor CREDENTIALS_KEY_PREVIOUS holds',
          { organisation_id: row.id },
        );
        continue;
      }
      const fresh = cipher.encrypt(secret, row.id);
      await this.guard(() =>
        this.db
          .updateTable('organisations')
          .set({ secret_ciphertext: fresh })
          .where('id', '=', row.id)
          .where('secret_ciphertext', '=', row.secret_ciphertext)
          .execute(),
      );
      count++;
    }
    return count;
  }
}
