import 'server-only';
import { BatchApiError, type BatchApiErrorCode, InvalidInputError, ServiceUnavailableError } from '../batch-api';

/** An error the route wrapper turns into `{detail}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** The one table from upstream failure to our status. */
const STATUS: Record<BatchApiErrorCode, number> = {
  auth_failed: 401,
  invalid_input: 422,
  unavailable: 503,
  timeout: 504,
  bad_response: 502,
  unexpected: 502,
};

/** Upstream field names are the service's; the browser knows ours. */
const FIELD_NAMES: Record<string, string> = { next_token: 'cursor' };

export function fromUpstream(error: BatchApiError): ApiError {
  const status = STATUS[error.code];
  if (error instanceof ServiceUnavailableError) {
    return new ApiError(status, `Batch Data Service unavailable: ${error.message}`, {
      'retry-after': String(Math.max(1, error.retryAfterS)),
    });
  }
  if (error instanceof InvalidInputError) {
    const renamed = error.message.replace(/^([a-z_]+):/, (m, f: string) => (FIELD_NAMES[f] ? `${FIELD_NAMES[f]}:` : m));
    return new ApiError(status, renamed);
  }
  if (error.code === 'auth_failed') {
    return new ApiError(status, 'session: the organisation credentials were refused by the Batch Data Service; sign in again');
  }
  if (error.code === 'timeout') return new ApiError(status, `Batch Data Service timed out: ${error.message}`);
  return new ApiError(status, `Batch Data Service answered something unexpected: ${error.message}`);
}

export function errorResponse(error: ApiError): Response {
  return Response.json(
    { detail: error.detail },
    { status: error.status, headers: { 'cache-control': 'no-store', ...error.headers } },
  );
}
