import 'server-only';
import { FairShare } from '../../async/fair-share';
import { UPSTREAM_SOCKETS } from '../../batch-api/keep-alive-fetch';
import { getConfig } from '../config';
import type { Actor } from '../auth/actor';
import { RangeLoadAdmission } from './range-load-admission';

/*
 * What keeps one session or one organisation from taking the process's capacity from the others: how many
 * range loads (streams and exports) run at once per session and per organisation, and each organisation's
 * share of the upstream connections. Per process: with several instances each has its own counts (as each
 * has its own sockets).
 */

export { RangeLoadAdmission, type RangeLoadLimits } from './range-load-admission';

// On globalThis: Next bundles routes apart, and every route must count against the same limits.
const holder = globalThis as unknown as { __rangeLoads?: RangeLoadAdmission; __upstreamShare?: FairShare };

export function rangeLoads(): RangeLoadAdmission {
  holder.__rangeLoads ??= new RangeLoadAdmission(getConfig().rangeLoads);
  return holder.__rangeLoads;
}

/** The process's upstream connections, shared fairly between organisations (keyed by organisation id). */
export function upstreamShare(): FairShare {
  holder.__upstreamShare ??= new FairShare(UPSTREAM_SOCKETS, getConfig().upstreamPerOrganisation);
  return holder.__upstreamShare;
}

/**
 * Waits for this session's turn to run a range load (or throws its 429), then runs `answer`, whose body
 * keeps the turn until it ends, fails or is cancelled, or the request is aborted. A failure before the body
 * (the first page refused) gives the turn back at once.
 */
export async function asRangeLoad(
  actor: Pick<Actor, 'session' | 'organisation'>,
  signal: AbortSignal,
  answer: () => Promise<Response>,
): Promise<Response> {
  const release = await rangeLoads().enter({ sid: actor.session.id, organisationId: actor.organisation.id }, signal);
  let response: Response;
  try {
    response = await answer();
  } catch (error) {
    release();
    throw error;
  }
  if (!response.body) {
    release();
    return response;
  }
  signal.addEventListener('abort', release, { once: true });
  return new Response(releasing(response.body, release), response);
}

/** `body`, calling `release` once it has ended, failed or been cancelled. */
function releasing(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
}
