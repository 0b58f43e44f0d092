import 'server-only';
import { defaultViewTarget, isBare, openedAsDefault } from '../../contract/views';
import { OPENED } from '../../explorer/url-state';
import { logLine } from '../logging';
import { settingsStore } from './index';

/** The page waits no longer than this for the default view: a slow store must not hold the explorer back. */
const WAIT_MS = 2000;

/** The organisation's default view, or null when it has none, or when the store fails or is slow. */
async function defaultView(organisationId: string) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), WAIT_MS)));
  return Promise.race([settingsStore().views.defaultView(organisationId), late])
    .catch((error: unknown) => {
      logLine('warn', 'default view: not read; the page opens without it', { error: String(error) });
      return null;
    })
    .finally(() => clearTimeout(timer));
}

/**
 * Where `/batches?<params>` should open instead: the organisation's default view when the URL is bare
 * (lib/contract/views.ts, defaultViewTarget). null: open the page as asked, also when the store fails or is
 * slow: the page works without saved views.
 */
export async function defaultViewPath(organisationId: string, params: URLSearchParams): Promise<string | null> {
  if (!isBare(params)) return null;
  const view = await defaultView(organisationId);
  return view ? defaultViewTarget(view.query, params) : null;
}

/**
 * The name of the default view this page load opened (the redirect above led here), for the page to say so;
 * null for any other URL, or when the view is no longer the default or no longer says this.
 */
export async function openedDefaultName(organisationId: string, params: URLSearchParams): Promise<string | null> {
  if (!params.has(OPENED)) return null;
  const view = await defaultView(organisationId);
  return view && openedAsDefault(view.query, params) ? view.name : null;
}
