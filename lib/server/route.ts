import 'server-only';
import type { z } from 'zod';
import { BatchApiError } from '../batch-api';
import { firstIssue } from '../zod-issue';
import { ApiError, errorResponse, fromUpstream } from './api-error';
import { getConfig } from './config';
import { withRequestStats } from './request-context';
import { logRequest } from './request-log';
import { requireSession } from './session';
import type { SessionData } from './session-rules';

const MAX_BODY_BYTES = 8 * 1024;

type Context<Q, B, Auth extends boolean> = {
  request: Request;
  query: Q;
  body: B;
  session: Auth extends true ? SessionData : undefined;
};

type Options<QS extends z.ZodType | undefined, BS extends z.ZodType | undefined, Auth extends boolean> = {
  auth: Auth;
  query?: QS;
  body?: BS;
};

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** First zod issue as `field: message`, the shape every 422 of ours has. */
function describeIssue(error: z.ZodError, fallback: string): string {
  const { field, message, unknownKey } = firstIssue(error, fallback);
  return `${field}: ${unknownKey ? 'unknown parameter' : message}`;
}

/** Same-origin check for state-changing requests: Origin first, Sec-Fetch-Site when Origin is absent. */
function checkOrigin(request: Request) {
  const origin = request.headers.get('origin');
  if (origin !== null) {
    const expected = getConfig().appOrigin ?? requestOrigin(request);
    if (origin !== expected) throw new ApiError(403, `origin: ${origin.slice(0, 100)} may not change this session`);
    return;
  }
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') {
    throw new ApiError(403, `origin: a ${site} request may not change this session`);
  }
}

function requestOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? url.host;
  const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() ?? url.protocol.replace(':', '');
  return `${proto}://${host}`;
}

function parseQuery(request: Request, schema: z.ZodType): unknown {
  const params = new URL(request.url).searchParams;
  const query: Record<string, string> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (values.length > 1) throw new ApiError(422, `${key.slice(0, 50)}: given more than once`);
    if (values[0] !== '') query[key] = values[0]!;
  }
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw new ApiError(422, describeIssue(parsed.error, 'query'));
  return parsed.data;
}

async function parseBody(request: Request, schema: z.ZodType): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/json')) throw new ApiError(415, 'body: must be application/json');
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw new ApiError(413, `body: larger than ${MAX_BODY_BYTES} bytes`);
  const text = await readLimited(request);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(422, 'body: not valid JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiError(422, describeIssue(parsed.error, 'body'));
  return parsed.data;
}

async function readLimited(request: Request): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new ApiError(413, `body: larger than ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The one wrapper for route handlers: origin check, session, zod parsing of query and body, and the single
 * mapping from error to `{detail}` + status. The handler body reads as the happy path.
 */
export function route<
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
  Auth extends boolean = true,
>(
  options: Options<QS, BS, Auth>,
  handler: (ctx: Context<Infer<QS>, Infer<BS>, Auth>) => Promise<Response>,
): (request: Request) => Promise<Response> {
  const handle = async (request: Request): Promise<Response> => {
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') checkOrigin(request);
      const session = options.auth ? await requireSession(request) : undefined;
      const query = options.query ? parseQuery(request, options.query) : undefined;
      const body = options.body ? await parseBody(request, options.body) : undefined;
      const response = await handler({ request, query, body, session } as Context<Infer<QS>, Infer<BS>, Auth>);
      if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
      return response;
    } catch (error) {
      // The browser went away (navigation, new range): nobody reads this answer, and it is no server error.
      if (request.signal.aborted) return new Response(null, { status: 499 });
      if (error instanceof ApiError) return errorResponse(error);
      if (error instanceof BatchApiError) return errorResponse(fromUpstream(error));
      console.error(JSON.stringify({ level: 'error', msg: 'unhandled route error', path: new URL(request.url).pathname, error: String(error) }));
      return errorResponse(new ApiError(500, 'internal error'));
    }
  };
  return (request) => {
    const started = performance.now();
    return withRequestStats(async (stats) => logRequest(request, await handle(request), started, stats));
  };
}
