/**
 * The people, account, connection and activity API as the browser reads it (the server's zod schemas are
 * in lib/server/people/api-schemas.ts).
 */
export const ROLE_NAMES = ['viewer', 'editor', 'admin'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

/** A member as `GET /api/admin/people` lists them. */
export type MemberEntry = {
  id: string;
  email: string;
  name: string;
  role: RoleName;
  disabled: boolean;
  lastSeenAt: string | null;
  invitePending: boolean;
};

/** `GET /api/admin/connection`: never the secret. */
export type ConnectionInfo = {
  clientId: string;
  secretSetAt: string | null;
  secretSetBy: { email: string; name: string } | null;
};

/** `POST /api/admin/connection/test`: a real sign-in at the service, its verdict in words. */
export type ConnectionTest = { ok: boolean; detail: string };

/** One entry of `GET /api/admin/activity`. */
export type ActivityEntry = {
  at: string;
  actor: { email: string; name: string };
  action: string;
  subject: string;
  before: unknown;
  after: unknown;
  address: string | null;
};

/** One of the person's sessions, `GET /api/account/sessions`; `id` is a handle, never the session's own id. */
export type AccountSession = {
  id: string;
  current: boolean;
  browser: string;
  address: string;
  signedInAt: string;
  lastSeenAt: string;
  method: 'password' | 'oidc';
};

/** `GET /api/account`. */
export type AccountInfo = {
  email: string;
  name: string;
  language: string | null;
  timeZone: string | null;
  defaultOrganisation: string | null;
};

/** `GET /api/links/<token>`: what a valid invite or reset link is for. */
export type LinkInfo = {
  kind: 'invite' | 'reset';
  email: string;
  name: string;
  organisation: { slug: string; name: string };
};
