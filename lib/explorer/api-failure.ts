/** A failed call to our API, with what the page needs to explain it. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly retryAfterS: number | null,
  ) {
    super(detail);
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
