import { z } from 'zod';
import { SLUG } from '../../org/slug';

/**
 * The OIDC_* variables: single sign-on is on when the provider's issuer, client ID and client secret are all
 * set, and off when none is; anything in between stops start-up, naming what is missing.
 */
const list = (item: z.ZodType<string, string>) =>
  z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));

const DOMAIN = z
  .string()
  .transform((d) => d.toLowerCase().replace(/^@/, ''))
  .pipe(
    z
      .string()
      .regex(
        /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'must be a comma-separated list of e-mail domains (example.com)',
      ),
  );

export const OidcEnvSchema = z.object({
  /** The provider's issuer URL, e.g. https://login.microsoftonline.com/<tenant>/v2.0 (https only). */
  OIDC_ISSUER: z.url({ protocol: /^https$/, error: 'must be the https URL of the provider (its issuer)' }).optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1).max(512, 'is longer than 512 characters').optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2048, 'is longer than 2048 characters').optional(),
  /** The provider's name on the sign-in button: `Sign in with <name>`. */
  OIDC_NAME: z.string().trim().min(1).max(60, 'is longer than 60 characters').optional(),
  OIDC_SCOPES: z
    .string()
    .transform((s) => s.split(/[\s,]+/).filter(Boolean))
    .pipe(
      z
        .array(z.string().regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, 'must be scope names separated by spaces'))
        .refine((scopes) => scopes.includes('openid'), 'must include openid'),
    )
    .optional(),
  /** The claim holding the person's groups or roles: a name (`groups`, `roles`) or a path (`realm_access.roles`). */
  OIDC_ROLE_CLAIM: z.string().trim().min(1).max(200).optional(),
  OIDC_ADMIN_VALUES: list(z.string().max(256, 'has a value longer than 256 characters')).optional(),
  OIDC_EDITOR_VALUES: list(z.string().max(256, 'has a value longer than 256 characters')).optional(),
  OIDC_ALLOWED_DOMAINS: list(DOMAIN).optional(),
  OIDC_ORGANISATION: z
    .string()
    .trim()
    .regex(SLUG, 'must be the slug of an organisation (lower-case letters, digits and -)')
    .optional(),
});

type OidcEnv = z.infer<typeof OidcEnvSchema>;

export type OidcSettings = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the button: `Sign in with <name>`. */
  name: string;
  scopes: string[];
  roleClaim?: string;
  /** Claim values that make an administrator or an editor, compared without regard to case. */
  adminValues: string[];
  editorValues: string[];
  /** E-mail domains a new person may join from; empty: any domain the provider vouches for. */
  allowedDomains: string[];
  /** The slug of the organisation a new person joins; unset: the only organisation, when there is one. */
  organisation?: string;
};

export const DEFAULT_SCOPES = ['openid', 'email', 'profile'];
const REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

/** Single sign-on's settings, or undefined when it is off; throws (naming the variable) for a half-done set-up. */
export function oidcSettings(env: OidcEnv): OidcSettings | undefined {
  const set = (Object.keys(OidcEnvSchema.shape) as (keyof OidcEnv)[]).filter((name) => env[name] !== undefined);
  const missing = REQUIRED.filter((name) => env[name] === undefined);
  if (set.length === 0) return undefined;
  if (missing.length > 0) {
    throw new Error(
      `Invalid configuration: ${missing[0]} is not set, but ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'}: ` +
        `single sign-on needs ${REQUIRED.join(', ')} together (or none of the OIDC_* variables)`,
    );
  }
  if ((env.OIDC_ADMIN_VALUES?.length || env.OIDC_EDITOR_VALUES?.length) && !env.OIDC_ROLE_CLAIM) {
    throw new Error(
      'Invalid configuration: OIDC_ROLE_CLAIM is not set: it names the claim OIDC_ADMIN_VALUES and OIDC_EDITOR_VALUES are looked for in',
    );
  }
  const issuer = env.OIDC_ISSUER!;
  const allowedDomains = env.OIDC_ALLOWED_DOMAINS ?? [];
  if (/^https:\/\/accounts\.google\.com\/?$/.test(issuer) && allowedDomains.length === 0) {
    console.warn(
      '\n  WARNING: OIDC_ISSUER is Google and OIDC_ALLOWED_DOMAINS is not set: anyone with a Google account the\n' +
        '  OAuth client admits may join. Set OIDC_ALLOWED_DOMAINS to your Workspace domains.\n',
    );
  }
  return {
    issuer,
    clientId: env.OIDC_CLIENT_ID!,
    clientSecret: env.OIDC_CLIENT_SECRET!,
    name: env.OIDC_NAME ?? 'SSO',
    scopes: env.OIDC_SCOPES ?? DEFAULT_SCOPES,
    roleClaim: env.OIDC_ROLE_CLAIM,
    adminValues: env.OIDC_ADMIN_VALUES ?? [],
    editorValues: env.OIDC_EDITOR_VALUES ?? [],
    allowedDomains,
    organisation: env.OIDC_ORGANISATION,
  };
}
