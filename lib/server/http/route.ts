import 'server-only';
import { safeParse, strictObject, type core } from 'zod';
import { printable } from '../../contract/storable-text';
import { AppError, invalidInput } from './app-error';
import { actorOf, orgParamProblem, type Actor } from '../auth/actor';
import { requestScheme } from '../auth/session-rules';
import { SessionCookies, sessions } from '../auth/sessions';
import { clientAddress } from './client-address';
import { getConfig } from '../config';
import { RAW_QUERY_HEADER } from '../input/raw-query';
import { loggedProblemOf, problemResponse } from './error-table';
import { requireRole, type Role } from '../people/roles';
import { whenProvisioned } from '../org/provisioning';
import { noteSessionIdentity } from '../logging/identity';
import { inRequestContext } from './request-context';
import { logRequest } from './request-log';

/** The body limit of a route that sets none: every body of ours but a settings save is far smaller. */
const MAX_BODY_BYTES = 8 * 1024;

/** Who may call a route: nobody signed in needed (false), or a member with at least this role (true: a viewer). */
export type Auth = false | true | Role;

export type RouteContext<Q, B, A extends Auth> = {
  request: Request;
  query: Q;
  body: B;
  /** The person, their session and the organisation the request acts for (`org=`, else their default). */
  actor: A extends false ? undefined : Actor;
  /** This request's cookies: read what the browser sent, write what goes back (sign-in, sign-out). */
  cookies: SessionCookies;
  /** The client's address, as the sign-in limits and the activity log count it (lib/server/http/client-address.ts). */
  address: string;
};

type Options<QS extends core.$ZodType | undefined, BS extends core.$ZodType | undefined, A extends Auth> = {
  auth: A;
  /** What the route does, for the refusal of a role too low: `saving the targets needs the editor role; …`. */
  what?: string;
  /** A route without a session that still reads people (sign-in, links): it waits for provisioning, as signed-in routes do. */
  people?: boolean;
  /** The query's schema; a route without one refuses every parameter (but `org`). */
  query?: QS;
  body?: BS;
  /** The largest body this route reads, in bytes (default 8 KB); larger ones are refused with 413. */
  maxBodyBytes?: number;
};

type Infer<S> = S extends core.$ZodType ? core.output<S> : undefined;

/** Same-origin check for state-changing requests: Origin first, Sec-Fetch-Site when Origin is absent. */
function checkOrigin(request: Request) {
  const origin = request.headers.get('origin');
  if (origin !== null) {
    const expected = getConfig().appOrigin ?? requestOrigin(request);
    if (origin !== expected)
      throw new AppError('foreign_origin', `${origin.slice(0, 100)} may not change this session`, { field: 'origin' });
    return;
  }
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') {
    throw new AppError('foreign_origin', `a ${site} request may not change this session`, { field: 'origin' });
  }
}

/** The app's public origin: APP_ORIGIN, else the request's own (what links the app hands out start with). */
export function publicOrigin(request: Request): string {
  return getConfig().appOrigin ?? requestOrigin(request);
}

function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? url.host;
  const origin = `${requestScheme(request)}://${host}`;
  // As browsers write an Origin: a scheme's default port left out (a proxy may name :443).
  return URL.canParse(origin) ? new URL(origin).origin : origin;
}

/**
 * The `org` parameter as given (the organisation to act for): every route accepts it and the route's own
 * schema never sees it. Repeated or of no slug's shape: 422.
 */
function orgOf(values: string[]): string | undefined {
  if (values.length > 1) throw new AppError('invalid_input', 'given more than once', { field: 'org' });
  const slug = values[0];
  if (slug === undefined || slug === '') return undefined;
  const problem = orgParamProblem(slug);
  if (problem) throw new AppError('invalid_input', problem, { field: 'org' });
  return slug;
}

/** The query of a route that takes none: any parameter at all is refused, naming it. */
const NO_QUERY = strictObject({});

/** The query as the request was sent (see raw-query.ts): what the schema reads is what the client wrote. */
function queryOf(request: Request): URLSearchParams {
  const raw = request.headers.get(RAW_QUERY_HEADER);
  return raw === null ? new URL(request.url).searchParams : new URLSearchParams(raw);
}

/**
 * Query parameters by the schema; a repeated parameter is refused, an empty one counts as absent (a name the
 * schema does not know is refused all the same).
 */
function parseQuery<S extends core.$ZodType>(params: URLSearchParams, schema: S): core.output<S> {
  const entries: [string, string | undefined][] = [];
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (values.length > 1)
      throw new AppError('invalid_input', 'given more than once', { field: printable(key.slice(0, 50)) });
    entries.push([key, values[0] === '' ? undefined : values[0]]);
  }
  // Own properties, whatever their names (`__proto__` included): a name the schema does not know is refused.
  const parsed = safeParse(schema, Object.fromEntries(entries));
  if (!parsed.success) throw invalidInput(parsed.error, 'query');
  return parsed.data;
}

const tooLarge = (limit: number) => new AppError('body_too_large', `larger than ${limit} bytes`, { field: 'body' });

async function parseBody(request: Request, schema: core.$ZodType, limit: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json'))
    throw new AppError('unsupported_body', 'must be application/json', { field: 'body' });
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const text = await readLimited(request, limit);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('invalid_input', 'not valid JSON', { field: 'body' });
  }
  const parsed = safeParse(schema, value);
  if (!parsed.success) throw invalidInput(parsed.error, 'body');
  return parsed.data;
}

async function readLimited(request: Request, limit: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The one wrapper for route handlers: origin check, session, the organisation (`org=`) and the role the route
 * needs, zod parsing of query and body, and the single mapping from error to `{detail}` + status
 * (lib/server/http/error-table.ts). The handler body reads as the happy
 * path. It takes a plain Request and returns a plain Response: Vitest calls it as Next.js does.
 */
export function route<
  QS extends core.$ZodType | undefined = undefined,
  BS extends core.$ZodType | undefined = undefined,
  A extends Auth = true,
>(
  options: Options<QS, BS, A>,
  handler: (ctx: RouteContext<Infer<QS>, Infer<BS>, A>) => Promise<Response>,
): (request: Request) => Promise<Response> {
  const needed: Role | null = options.auth === false ? null : options.auth === true ? 'viewer' : options.auth;
  const handle = async (request: Request): Promise<Response> => {
    const cookies = new SessionCookies(request);
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') checkOrigin(request);
      const params = queryOf(request);
      const orgValues = params.getAll('org');
      params.delete('org');
      if (needed || options.people) await whenProvisioned();
      let actor: Actor | undefined;
      if (needed) {
        const session = await sessions().require(cookies);
        actor = actorOf(session, orgOf(orgValues));
        noteSessionIdentity(actor);
        requireRole(actor.role, needed, options.what ?? 'this');
      }
      const query = options.query ? parseQuery(params, options.query) : void parseQuery(params, NO_QUERY);
      const body = options.body
        ? await parseBody(request, options.body, options.maxBodyBytes ?? MAX_BODY_BYTES)
        : undefined;
      const address = clientAddress(request, getConfig().trustedProxyHops);
      const response = await handler({ request, query, body, actor, cookies, address } as RouteContext<
        Infer<QS>,
        Infer<BS>,
        A
      >);
      if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
      return cookies.applyTo(response);
    } catch (error) {
      // The browser went away (navigation, new range): nobody reads this answer, and it is no server error.
      if (request.signal.aborted) return new Response(null, { status: 499 });
      const problem = loggedProblemOf(error, 'unhandled route error', { path: new URL(request.url).pathname });
      return cookies.applyTo(problemResponse(problem));
    }
  };
  return logged(handle);
}

/** A handler whose every request, whatever its answer, writes its one log line (lib/server/http/request-log.ts). */
export function logged(handle: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return (request) => {
    const started = performance.now();
    return inRequestContext(request, async (context) => logRequest(request, await handle(request), started, context));
  };
}
