import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import type { HeaderPerson } from '@/components/auth/app-header';
import { forbidden, redirect } from 'next/navigation';
import { noteSessionIdentity } from '../logging/identity';
import { whenProvisioned } from '../org/provisioning';
import { languageChoice } from '../http/reader-locale';
import { roleAtLeast, type Role } from '../people/roles';
import { actorOf, orgParamProblem, type Actor } from './actor';
import { PAGE_SEARCH_HEADER } from './session-rules';
import { sessionCookieValue, sessions } from './sessions';

/** A page's `searchParams` as Next hands them. */
export type PageParams = Record<string, string | string[] | undefined>;

/** The page's own address with its query, for coming back after sign-in. */
export function pageHere(path: string, params: PageParams): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v ?? []].flat()) query.append(k, one);
  return `${path}${query.size ? `?${query}` : ''}`;
}

/**
 * Who looks at a page, for the organisation its `org=` names (else their default): signed out, a redirect to
 * sign-in that comes back here; not a member of that organisation, or a role below `needed`, the 403 page
 * (app/forbidden.tsx), never another organisation's data.
 */
export const pageActor = cache(async (path: string, params: PageParams, needed: Role = 'viewer'): Promise<Actor> => {
  await whenProvisioned();
  // Read as the API reads it: the raw value under the name the scheme calls for. One that does not open is no session.
  const session = await sessions().read(sessionCookieValue(await headers()));
  if (!session) redirect(`/sign-in?next=${encodeURIComponent(pageHere(path, params))}`);
  const raw = params.org;
  const slug = typeof raw === 'string' && raw !== '' ? raw : undefined;
  if (Array.isArray(raw) || (slug !== undefined && orgParamProblem(slug))) forbidden();
  const chosen = session.memberships.find((m) => m.slug === slug);
  if (slug !== undefined && !chosen) forbidden();
  if (session.memberships.length === 0) forbidden();
  const actor = actorOf(session, slug);
  // The page's request line names who asked, as an API request's does.
  noteSessionIdentity(actor);
  if (!roleAtLeast(actor.role, needed)) forbidden();
  return actor;
});

/**
 * The page's own query as proxy.ts hands it on (layouts get no searchParams): for a layout that decides, before
 * its page's loading state is streamed, whether the page may be shown, so that a refusal is a real 403 or 307.
 */
export async function layoutParams(): Promise<PageParams> {
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams((await headers()).get(PAGE_SEARCH_HEADER) ?? '')) {
    const had = params[key];
    params[key] = had === undefined ? value : [had].flat().concat(value);
  }
  return params;
}

/** What the page header shows of the actor. */
export async function headerPerson(actor: Actor): Promise<HeaderPerson> {
  const { slug, name } = actor.organisation;
  return {
    name: actor.person.name,
    email: actor.person.email,
    role: actor.role,
    organisation: { slug, name },
    organisations: actor.memberships.map(({ organisation }) => ({ slug: organisation.slug, name: organisation.name })),
    language: await languageChoice(),
  };
}
