import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Batch } from '../../lib/contract';
import { HttpError } from '../http';
import type { Organisation } from '../organisations';
import { REPORTS_PATH } from './links';
import { notFoundPage, REPORT_CSP, reportPage } from './page';

export { REPORTS_PATH, reportBaseUrl } from './links';

/** Each organisation's batches by ID, made on the first report asked of it (an edit makes a new organisation). */
const byId = new WeakMap<Organisation, Map<string, Batch>>();
function batchOf(org: Organisation, id: string): Batch | undefined {
  let index = byId.get(org);
  if (!index) byId.set(org, (index = new Map(org.batches.map((b) => [b.batch_id, b]))));
  return index.get(id);
}

function sendPage(res: ServerResponse, status: number, html: string, head: boolean) {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'content-security-policy': REPORT_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  res.end(head ? undefined : html);
}

/**
 * GET (or HEAD) `/reports/<organisation id>/<batch_id>`: the batch's analysis report, an HTML page a browser
 * opens straight from the dashboard's Open analysis link, so it asks for no token (the batch's ID in the link is
 * the key, as in a shared link). Anything else under the path is a 404 page.
 */
export function serveReport(
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
  organisations: readonly Organisation[],
) {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw new HttpError(405, 'Method Not Allowed', { allow: 'GET, HEAD' });
  const head = req.method === 'HEAD';
  const parts = pathname.slice(REPORTS_PATH.length).split('/');
  let orgId: string, batchId: string;
  try {
    [orgId, batchId] = parts.map(decodeURIComponent) as [string, string];
  } catch {
    return sendPage(res, 404, notFoundPage(), head);
  }
  const org = parts.length === 2 ? organisations.find((o) => o.id === orgId) : undefined;
  const batch = org && batchOf(org, batchId);
  if (!org || !batch) return sendPage(res, 404, notFoundPage(), head);
  sendPage(res, 200, reportPage(org.name, batch), head);
}
