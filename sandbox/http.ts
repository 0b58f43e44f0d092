import type { IncomingMessage, ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    public status: number,
    public detail: string,
    public headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A body that is not JSON, as gateways and crashed frameworks answer. */
export function sendText(res: ServerResponse, status: number, type: string, text: string) {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError) {
  sendJson(res, error.status, { detail: error.detail }, error.headers);
}

/** Reads a small request body; anything past `limit` bytes is refused with 413. */
export async function readBody(req: IncomingMessage, limit = 16 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new HttpError(413, `Request body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Writes a large JSON array from serialized items, a thousand at a time, without building one giant string. */
export async function streamJsonArray(
  res: ServerResponse,
  itemsOf: (from: number, to: number) => string[],
  from: number,
  to: number,
) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const CHUNK = 1000;
  for (let i = from; i < to; i += CHUNK) {
    const part = itemsOf(i, Math.min(to, i + CHUNK)).join(',');
    const ok = res.write(i === from ? part : `,${part}`);
    if (!ok) {
      // A client that hangs up never drains: stop on close as well.
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.once('drain', done);
        res.once('close', done);
      });
    }
    if (res.destroyed) return;
  }
  res.end(']');
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
