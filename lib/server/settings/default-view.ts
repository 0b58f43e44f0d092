import 'server-only';
import { defaultViewTarget, holdsViewState } from '../../contract/views';
import { logLine } from '../log';
import { settingsStore } from './index';

/** The page waits no longer than this for the default view: a slow store must not hold the explorer back. */
const WAIT_MS = 2000;

/**
 * Where `/batches?<params>` should open instead: the organisation's default view when the URL holds no state
 * (lib/contract/views.ts, defaultViewTarget). null: open the page as asked, also when the store fails or is
 * slow: the page works without saved views.
 */
export async function defaultViewPath(organisationId: string, params: URLSearchParams): Promise<string | null> {
  if (holdsViewState(params.toString())) return null;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), WAIT_MS)));
  const view = await Promise.race([settingsStore().views.defaultView(organisationId), late])
    .catch((error: unknown) => {
      logLine('warn', 'default view: not read; the page opens without it', { error: String(error) });
      return null;
    })
    .finally(() => clearTimeout(timer));
  return view ? defaultViewTarget(view.query, params) : null;
}
