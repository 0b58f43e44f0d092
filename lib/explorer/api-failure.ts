/**
 * Why a call failed without an answer from our API (status 0), as a code the page says in the reader's
 * language; `detail` keeps the English sentence for logs and for code that reads it.
 */
export type ClientReason = 'unreachable' | 'brokeOff' | 'unreadableLine' | 'unreadableTargets' | 'unreadableViews';

const CLIENT_DETAIL: Record<ClientReason, string> = {
  unreachable: 'The dashboard server could not be reached.',
  brokeOff: 'The connection to the dashboard server broke off.',
  unreadableLine: 'The dashboard server sent a line that could not be read.',
  unreadableTargets: 'The dashboard server sent targets that could not be read.',
  unreadableViews: 'The dashboard server sent saved views that could not be read.',
};

/** A failed call to our API, with what the page needs to explain it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly retryAfterS: number | null,
    /** Set when the browser itself found the failure (status 0). */
    readonly reason?: ClientReason,
  ) {
    super(detail);
  }

  /** A failure found in the browser: no answer, or one that could not be read. */
  static client(reason: ClientReason): ApiFailure {
    return new ApiFailure(0, CLIENT_DETAIL[reason], null, reason);
  }

  /** The failure of a response that is not ok, from its `{detail}` body and `Retry-After`. */
  static async of(response: Response): Promise<ApiFailure> {
    const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
    const retryAfter = Number(response.headers.get('retry-after'));
    return new ApiFailure(
      response.status,
      typeof body.detail === 'string' ? body.detail : `Error ${response.status}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
}
