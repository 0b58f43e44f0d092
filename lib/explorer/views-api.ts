import { readSavedView, type SavedView, type ViewChange } from '../contract/views';
import { withOrg } from '../org-param';
import { ApiFailure } from './api-failure';

const PATH = '/api/settings/views';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

const unreachable = () => ApiFailure.client('unreachable');
const unreadable = () => ApiFailure.client('unreadableViews');

async function call(path: string, init: RequestInit): Promise<Response> {
  const response = await fetch(withOrg(path), init).catch((error: unknown) => {
    throw init.signal?.aborted ? error : unreachable();
  });
  if (!response.ok) throw await ApiFailure.of(response);
  return response;
}

async function viewOf(response: Response): Promise<SavedView> {
  const view = readSavedView(await response.json().catch(() => null));
  if (!view) throw unreadable();
  return view;
}

/** The organisation's saved views, by name. */
export async function fetchViews(signal?: AbortSignal): Promise<SavedView[]> {
  const response = await call(PATH, { signal, headers: { accept: 'application/json' } });
  const body: unknown = await response.json().catch(() => null);
  const list = typeof body === 'object' && body !== null ? (body as { views?: unknown }).views : null;
  const views = Array.isArray(list) ? list.map(readSavedView) : null;
  if (!views || views.includes(null)) throw unreadable();
  return views as SavedView[];
}

/** Names `query` (the explorer's query string): the asker's own, or `shared` with the organisation; 409 when the name is taken. */
export async function createView(name: string, query: string, shared = false): Promise<SavedView> {
  return viewOf(
    await call(PATH, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ name, query, shared }) }),
  );
}

export async function changeView(id: string, change: ViewChange): Promise<SavedView> {
  return viewOf(
    await call(`${PATH}/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      headers: JSON_HEADERS,
      body: JSON.stringify(change),
    }),
  );
}

export async function deleteView(id: string): Promise<void> {
  await call(`${PATH}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
