import { readTargetSettings, type Targets, type TargetSettings } from '../contract';
import { withOrg } from '../org-param';
import { ApiFailure } from './api-failure';

const PATH = '/api/settings/targets';

async function answer(response: Response): Promise<TargetSettings> {
  if (!response.ok) throw await ApiFailure.of(response);
  const settings = readTargetSettings(await response.json().catch(() => null));
  if (!settings) throw ApiFailure.client('unreadableTargets');
  return settings;
}

const unreachable = () => ApiFailure.client('unreachable');

/** The organisation's saved targets and when they last changed. */
export async function fetchTargets(signal?: AbortSignal): Promise<TargetSettings> {
  const response = await fetch(withOrg(PATH), { signal, headers: { accept: 'application/json' } }).catch(
    (error: unknown) => {
      throw signal?.aborted ? error : unreachable();
    },
  );
  return answer(response);
}

/**
 * Saves `targets` for the whole organisation. `expectedUpdatedAt` is when the targets being replaced were
 * saved: a colleague's save since then makes this one fail (409) rather than undo theirs.
 */
export async function saveTargets(targets: Targets, expectedUpdatedAt: string | null): Promise<TargetSettings> {
  const response = await fetch(withOrg(PATH), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ targets, expectedUpdatedAt }),
  }).catch(() => {
    throw unreachable();
  });
  return answer(response);
}
