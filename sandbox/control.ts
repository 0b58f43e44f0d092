import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { BatchSchema } from '../lib/contract/schemas';
import { firstIssue } from '../lib/zod-issue';
import { FaultSettingsSchema, InjectSchema, type Faults } from './faults';
import { HttpError, readBody, sendJson } from './http';
import type { SandboxStats } from './stats';
import type { TokenStore } from './tokens';

/**
 * Batches of one organisation changed, removed or added while the sandbox runs (the service's data moving on
 * between a page's loads), until the next reset.
 */
export const EditSchema = z
  .object({
    clientId: z.string().min(1),
    change: z
      .array(
        z
          .object({
            batch_id: z.string().min(1),
            set: z.strictObject(BatchSchema.shape).omit({ batch_id: true }).partial(),
          })
          .strict(),
      )
      .default([]),
    remove: z.array(z.string().min(1)).default([]),
    add: z.array(BatchSchema).default([]),
  })
  .strict();
export type Edit = z.infer<typeof EditSchema>;

type Deps = {
  faults: Faults;
  tokens: TokenStore;
  tokenTtlS: number;
  stats: () => SandboxStats;
  resetStats: () => void;
  edit: (edit: Edit) => { batches: number };
  resetData: () => void;
};

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
 * POST /_sandbox/revoke-tokens, POST /_sandbox/edit (change, remove or add batches of one organisation),
 * POST /_sandbox/reset (start-up settings and batches, counters at zero; tokens stay valid).
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
    case 'POST /_sandbox/edit':
      return sendJson(res, 200, deps.edit(await jsonBody(req, EditSchema)));
    case 'POST /_sandbox/revoke-tokens':
      return sendJson(res, 200, { revoked: tokens.revokeAll() });
    case 'POST /_sandbox/reset':
      faults.reset();
      deps.resetData();
      tokens.ttlS = deps.tokenTtlS;
      deps.resetStats();
      return sendJson(res, 200, faults.snapshot());
    default:
      throw new HttpError(404, `No sandbox control at ${route}`);
  }
}
