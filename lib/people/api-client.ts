import { ApiFailure } from '../explorer/api-failure';
import { withOrg } from '../org-param';

/**
 * The browser's calls to our people, account, connection, history and link routes: JSON in and out, the page's
 * `org=` on every call, a refusal as an ApiFailure with the server's `{detail}`.
 */
export async function callApi<T>(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  const response = await fetch(withOrg(path), {
    method: init.method ?? 'GET',
    signal: init.signal,
    headers: { accept: 'application/json', ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  }).catch((error: unknown) => {
    throw init.signal?.aborted ? error : ApiFailure.client('unreachable');
  });
  if (!response.ok) throw await ApiFailure.of(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
