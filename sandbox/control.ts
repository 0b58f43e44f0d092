import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { firstIssue } from '../lib/zod-issue';
import { FaultSettingsSchema, InjectSchema, type Faults } from './faults';
import { HttpError, readBody, sendJson } from './http';
import type { SandboxStats } from './stats';
import type { TokenStore } from './tokens';

type Deps = { faults: Faults; tokens: TokenStore; tokenTtlS: number; stats: () => SandboxStats; resetStats: () => void };

async function jsonBody<T extends z.ZodType>(req: IncomingMessage, schema: T): Promise<z.infer<T>> {
  const text = await readBody(req);
  let value: unknown;
  try {
    value = text ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(422, 'body: not valid JSON');
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const { field, message } = firstIssue(parsed.error, 'body');
    throw new HttpError(422, `${field}: ${message}`);
  }
  return parsed.data;
}

/**
 * The sandbox's own switches, for tests and demos (not part of the emulated service):
 * GET /_sandbox/stats, GET|POST /_sandbox/faults, POST /_sandbox/inject,
 * POST /_sandbox/revoke-tokens, POST /_sandbox/reset (start-up settings, counters at zero; tokens stay valid).
 */
export async function handleControl(path: string, req: IncomingMessage, res: ServerResponse, deps: Deps) {
  const { faults, tokens } = deps;
  const route = `${req.method} ${path}`;
  switch (route) {
    case 'GET /_sandbox/stats':
      return sendJson(res, 200, deps.stats());
    case 'GET /_sandbox/faults':
      return sendJson(res, 200, { ...faults.snapshot(), tokenTtlS: tokens.ttlS });
    case 'POST /_sandbox/faults': {
      const { tokenTtlS, ...settings } = await jsonBody(req, FaultSettingsSchema);
      Object.assign(faults, settings);
      if (tokenTtlS !== undefined) tokens.ttlS = tokenTtlS;
      return sendJson(res, 200, { ...faults.snapshot(), tokenTtlS: tokens.ttlS });
    }
    case 'POST /_sandbox/inject':
      faults.inject(await jsonBody(req, InjectSchema));
      return sendJson(res, 200, faults.snapshot());
    case 'POST /_sandbox/revoke-tokens':
      return sendJson(res, 200, { revoked: tokens.revokeAll() });
    case 'POST /_sandbox/reset':
      faults.reset();
      tokens.ttlS = deps.tokenTtlS;
      deps.resetStats();
      return sendJson(res, 200, faults.snapshot());
    default:
      throw new HttpError(404, `No sandbox control at ${route}`);
  }
}
