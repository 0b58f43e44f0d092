import 'server-only';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { firstIssue } from '../../zod-issue';
import { getConfig, type ProvisioningConfig } from '../config';
import { errorFields, logLine } from '../logging';
import { hashPassword, MAX_PASSWORD, MIN_PASSWORD } from '../people/passwords';
import { ROLES } from '../people/roles';
import { settingsStore, type SettingsStore } from '../settings';
import { SLUG } from './slug';

const RoleSchema = z.enum(ROLES as ['viewer', 'editor', 'admin']);

/** PROVISIONING_FILE: organisations and people to create when missing (README, "Provisioning"). */
export const ProvisioningFileSchema = z.strictObject({
  organisations: z
    .array(
      z
        .strictObject({
          name: z.string().trim().min(1).max(120),
          slug: z.optional(z.string().regex(SLUG, 'must be lower-case letters, digits and dashes (at most 40)')),
          clientId: z.string().min(1).max(256),
          clientSecret: z.optional(z.string().min(1).max(1024)),
          /** The environment variable holding the secret, so that the file itself need not. */
          clientSecretEnv: z.optional(
            z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'),
          ),
        })
        .refine(
          (o) => Boolean(o.clientSecret) !== Boolean(o.clientSecretEnv),
          'give clientSecret or clientSecretEnv, one of them',
        ),
    )
    .default([]),
  people: z
    .array(
      z.strictObject({
        email: z.email(),
        name: z.optional(z.string().trim().max(120)),
        password: z.optional(z.string().min(MIN_PASSWORD).max(MAX_PASSWORD)),
        roles: z.record(z.string().regex(SLUG), RoleSchema),
      }),
    )
    .default([]),
});
export type ProvisioningFile = z.infer<typeof ProvisioningFileSchema>;

/** What one provisioning run created or filled in, for its log line (counts only: never a secret or an e-mail address). */
export type Provisioned = { organisations: number; people: number; memberships: number; reencrypted: number };

/**
 * Creates what the deployment names and the database lacks, and never overwrites or deletes what people
 * changed in the app: the first organisation from BATCH_API_CLIENT_ID, BATCH_API_CLIENT_SECRET and
 * ORGANISATION_NAME when none exists; its first administrator from ADMIN_EMAIL and ADMIN_PASSWORD when
 * nobody exists; PROVISIONING_FILE's organisations that are missing, and its people that are missing with
 * their memberships (a person who exists gets memberships only in organisations made in this run: roles
 * changed and memberships removed in the app stay so). An organisation the settings migration made from a
 * client ID (no secret yet) is filled in when named. Then every secret kept under an older CREDENTIALS_KEY
 * is re-encrypted under the current one.
 */
export async function provision(
  store: SettingsStore,
  config: ProvisioningConfig,
  env: Record<string, string | undefined> = process.env,
): Promise<Provisioned> {
  const done: Provisioned = { organisations: 0, people: 0, memberships: 0, reencrypted: 0 };
  const file = config.file ? await readProvisioningFile(config.file) : { organisations: [], people: [] };
  const organisations = [
    ...(config.organisation ? [{ ...config.organisation, fromEnv: true }] : []),
    ...file.organisations.map((o) => ({
      ...o,
      clientSecret: o.clientSecret ?? secretFrom(env, o.clientSecretEnv!),
      fromEnv: false,
    })),
  ];
  // What this run creates: an existing person is given memberships only in organisations made now.
  const madeNow = new Set<string>();
  for (const organisation of organisations) {
    if (!organisation.clientSecret) continue;
    const existing = await store.organisations.byClientId(organisation.clientId);
    if (existing) {
      if (
        !existing.hasSecret &&
        (await store.organisations.fillPlaceholder(existing.id, {
          ...organisation,
          clientSecret: organisation.clientSecret,
        }))
      )
        done.organisations++;
      continue;
    }
    // The variables make the first organisation only; the file's are made whenever they are missing.
    if (organisation.fromEnv && (await store.organisations.count()) > 0) continue;
    if (organisation.slug && (await store.organisations.bySlug(organisation.slug))) continue;
    madeNow.add(
      (
        await store.organisations.create({
          name: organisation.name,
          slug: organisation.slug,
          clientId: organisation.clientId,
          clientSecret: organisation.clientSecret,
        })
      ).id,
    );
    done.organisations++;
  }
  if (config.admin && (await store.people.count()) === 0) {
    const first = config.organisation
      ? await store.organisations.byClientId(config.organisation.clientId)
      : (await store.organisations.list())[0];
    if (first) {
      const person = await store.people.create({
        email: config.admin.email,
        name: 'Administrator',
        passwordHash: await hashPassword(config.admin.password),
      });
      await store.people.setMembership(first.id, person.id, 'admin');
      done.people++;
      done.memberships++;
    } else {
      logLine('warn', 'provisioning: ADMIN_EMAIL is set but there is no organisation to make them an administrator of');
    }
  }
  // The missing people's passwords hashed side by side (argon2 runs on the thread pool), then written one by one.
  const missing = new Set<string>();
  for (const entry of file.people) if (!(await store.people.byEmail(entry.email))) missing.add(entry.email);
  const hashes = new Map(
    await Promise.all(
      file.people
        .filter((p) => missing.has(p.email) && p.password)
        .map(async (p) => [p.email, await hashPassword(p.password!)] as const),
    ),
  );
  for (const entry of file.people) {
    let person = await store.people.byEmail(entry.email);
    const isNew = !person;
    if (!person) {
      person = {
        ...(await store.people.create({
          email: entry.email,
          name: entry.name,
          passwordHash: hashes.get(entry.email) ?? null,
        })),
        passwordHash: null,
      };
      done.people++;
    }
    for (const [slug, role] of Object.entries(entry.roles)) {
      const organisation = await store.organisations.bySlug(slug);
      if (!organisation) {
        logLine('warn', 'provisioning: a person names an organisation that does not exist', { slug });
        continue;
      }
      // Someone who exists is the app's to manage: a role changed or a membership removed there stays so.
      if (!isNew && !madeNow.has(organisation.id)) continue;
      if ((await store.people.roleIn(organisation.id, person.id)) !== null) continue;
      await store.people.setMembership(organisation.id, person.id, role);
      done.memberships++;
    }
  }
  done.reencrypted = (await store.organisations.reencryptStale()) + (await store.alerts.reencryptStale());
  return done;
}

function secretFrom(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name];
  if (!value)
    logLine(
      'warn',
      'provisioning: the variable named by clientSecretEnv is not set; that organisation is not created',
      { variable: name },
    );
  return value || undefined;
}

/** The file, read and checked; a bad one stops provisioning with a message naming the place, never quoting values. */
export async function readProvisioningFile(path: string): Promise<ProvisioningFile> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`PROVISIONING_FILE ${path} cannot be read as JSON: ${(error as Error).name}`);
  }
  const parsed = ProvisioningFileSchema.safeParse(value);
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error, 'file');
    throw new Error(`PROVISIONING_FILE ${path}: ${field}: ${message}`);
  }
  return parsed.data;
}

const holder = globalThis as unknown as { __provisioned?: Promise<void> };

/**
 * Provisioning of this process, run once before the first request is answered (every route and page
 * awaits it, so nobody signs in before the people named for this start exist). A database that cannot be
 * reached leaves it to be tried again by the next request; any other failure is logged, and the app runs
 * with what exists.
 */
export function whenProvisioned(): Promise<void> {
  holder.__provisioned ??= provision(settingsStore(), getConfig().provisioning).then(
    (done) => {
      if (Object.values(done).some((n) => n > 0)) logLine('info', 'provisioning: done', done);
    },
    (error: unknown) => {
      if ((error as { code?: unknown }).code === 'store_unavailable') {
        holder.__provisioned = undefined;
        throw error;
      }
      logLine('error', 'provisioning failed; the app runs with what the database holds', errorFields(error));
    },
  );
  return holder.__provisioned;
}
