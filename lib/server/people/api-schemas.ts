import 'server-only';
import { z } from 'zod';
import { AUDIT_ACTIONS } from '../audit/audit-store';
import { LANGUAGES } from '../../i18n/languages';
import { SLUG } from '../org/slug';
import { MAX_PASSWORD, MIN_PASSWORD } from './passwords';
import { ROLES } from './roles';

const role = z.enum(ROLES as ['viewer', 'editor', 'admin'], { error: 'must be viewer, editor or admin' });
const name = z
  .string({ error: 'must be a text' })
  .trim()
  .min(1, 'must not be empty')
  .max(120, 'must be at most 120 characters');

export const InviteSchema = z.strictObject({
  email: z.email({ error: 'must be an e-mail address' }).max(320),
  role,
  name: z.optional(name),
});

export const MemberChangeSchema = z
  .strictObject({ role: z.optional(role), disabled: z.optional(z.boolean({ error: 'must be true or false' })) })
  .refine((c) => c.role !== undefined || c.disabled !== undefined, 'must name a role or disabled');

export const PasswordSchema = z
  .string({ error: 'must be a text' })
  .min(MIN_PASSWORD, `must be at least ${MIN_PASSWORD} characters`)
  .max(MAX_PASSWORD, `must be at most ${MAX_PASSWORD} characters`);

/** Using a link: an invite also sets the name. */
export const LinkUseSchema = z.strictObject({ name: z.optional(name), password: PasswordSchema });

export const ConnectionChangeSchema = z.strictObject({
  clientSecret: z
    .string({ error: 'must be a text' })
    .min(1, 'must not be empty')
    .max(1024, 'must be at most 1024 characters'),
  clientId: z.optional(
    z.string({ error: 'must be a text' }).trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  ),
});

/** An IANA zone this runtime knows, or UTC. */
const zone = z.string().refine((z) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: z });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as Europe/Berlin');

export const AccountChangeSchema = z
  .strictObject({
    name: z.optional(name),
    language: z.optional(
      z.nullable(
        z.enum(LANGUAGES as unknown as [string, ...string[]], {
          error: `must be one of ${LANGUAGES.join(', ')}, or null`,
        }),
      ),
    ),
    timeZone: z.optional(z.nullable(zone)),
    defaultOrganisation: z.optional(z.string().regex(SLUG, 'must be an organisation slug')),
  })
  .refine((c) => Object.keys(c).length > 0, 'must name something to change');

/** A day or an instant (ISO 8601). A day is in UTC: `from` its start, `to` its end (the day included). */
const instant = (end: boolean) =>
  z
    .string()
    .refine((t) => !Number.isNaN(Date.parse(t)) && /^\d{4}-\d{2}-\d{2}/.test(t), 'must be an ISO 8601 date or time')
    .transform((t) => new Date(Date.parse(t) + (end && /^\d{4}-\d{2}-\d{2}$/.test(t) ? 86_400_000 : 0)));

export const ActivityQuerySchema = z.strictObject({
  from: z.optional(instant(false)),
  to: z.optional(instant(true)),
  action: z.optional(z.enum(AUDIT_ACTIONS, { error: 'must be one of the activity log’s actions' })),
  actor: z.optional(z.string().max(320)),
  format: z.enum(['json', 'csv']).default('json'),
  limit: z.coerce.number().int().min(1).max(10_000).default(500),
});
