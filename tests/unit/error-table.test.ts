import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  BadResponseError,
  InvalidInputError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedError,
} from '@/lib/batch-api/errors';
import { ProblemSchema } from '@/lib/contract/schemas';
import { AppError, type AppErrorCode } from '@/lib/server/http/app-error';
import { ERROR_STATUS, problemOf, problemResponse } from '@/lib/server/http/error-table';

describe('the error table', () => {
  it.each<[AppErrorCode, number]>([
    ['not_signed_in', 401],
    ['session_expired', 401],
    ['session_idle', 401],
    ['session_revoked', 401],
    ['credentials_refused', 401],
    ['foreign_origin', 403],
    ['forbidden_role', 403],
    ['not_member', 403],
    ['account_disabled', 403],
    ['not_connected', 409],
    ['body_too_large', 413],
    ['unsupported_body', 415],
    ['method_not_allowed', 405],
    ['edit_conflict', 409],
    ['conflict', 409],
    ['not_found', 404],
    ['invalid_input', 422],
    ['too_many_attempts', 429],
    ['internal', 500],
    ['store_unavailable', 503],
    ['shutting_down', 503],
  ])('%s is %i, its detail `field: message`', (code, status) => {
    expect(problemOf(new AppError(code, 'what is wrong', { field: 'f' }))).toEqual({
      status,
      detail: 'f: what is wrong',
      retryAfterS: null,
    });
    expect(ERROR_STATUS[code]).toBe(status);
  });

  it('carries the wait as a number from the error to the answer', async () => {
    const problem = problemOf(
      new AppError('too_many_attempts', 'too many sign-in attempts; try again in 42 s', {
        field: 'clientId',
        retryAfterS: 42,
      }),
    );
    expect(problem).toEqual({
      status: 429,
      detail: 'clientId: too many sign-in attempts; try again in 42 s',
      retryAfterS: 42,
    });
    const response = problemResponse(problem);
    expect(response.headers.get('retry-after')).toBe('42');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ detail: problem.detail });
    expect(problemResponse({ status: 422, detail: 'x', retryAfterS: null }).headers.has('retry-after')).toBe(false);
  });

  it('answers upstream errors by their code, whatever status the service itself answered', () => {
    const outage = new ServiceUnavailableError('/v2/batches answered 503', 0, {
      status: 503,
      serviceDetail: 'backend down',
    });
    expect(problemOf(outage)).toEqual({
      status: 503,
      detail: 'Batch Data Service unavailable: backend down',
      retryAfterS: 1,
    });
    expect(problemOf(new ServiceUnavailableError('connection failed', 7))).toMatchObject({
      status: 503,
      retryAfterS: 7,
    });
    expect(problemOf(new TimeoutError('GET /v2/batches: no complete answer within 15000 ms', 15_000))).toEqual({
      status: 504,
      detail: 'Batch Data Service timed out: no complete answer within 15 s',
      retryAfterS: null,
    });
    expect(problemOf(new UnexpectedError('/v2/batches answered 500', { status: 500 }))).toMatchObject({ status: 502 });
    expect(problemOf(new UnexpectedError('/v2/batches answered 418', { status: 418 }))).toMatchObject({ status: 502 });
    expect(problemOf(new BadResponseError('body: not JSON', { field: 'body', status: 200 }))).toMatchObject({
      status: 502,
    });
    // The organisation's credentials are the server's now: signing in again would not help, an administrator must replace them.
    expect(problemOf(new AuthenticationError('refused', { status: 401 }))).toEqual({
      status: 502,
      detail:
        'connection: the Batch Data Service refused the organisation’s client credentials; an administrator can replace the secret under Connection',
      retryAfterS: null,
    });
  });

  it('names the field in our API’s words, from the error’s structure', () => {
    // Our own check, before any call: the client already wrote `field: why`.
    expect(problemOf(new InvalidInputError('start_date: has no timezone', { field: 'start_date' })).detail).toBe(
      'start_date: has no timezone',
    );
    // The service refused it: its `next_token` is our `cursor`, the rest is the service's sentence.
    const refused = new InvalidInputError('next_token: not a valid cursor', { field: 'next_token', status: 422 });
    expect(problemOf(refused)).toEqual({ status: 422, detail: 'cursor: not a valid cursor', retryAfterS: null });
    // A field known from a `loc` whose sentence does not open with it is put in front.
    expect(
      problemOf(new InvalidInputError('something; end_date: too late', { field: 'end_date', status: 422 })).detail,
    ).toBe('end_date: something; end_date: too late');
    const unnamed = new InvalidInputError('something is off', { status: 422 });
    expect(problemOf(unnamed).detail).toBe('something is off');
  });

  it('says nothing of our own failures but "internal error", and every problem fits the wire contract', () => {
    expect(problemOf(new TypeError('x is undefined at /srv/app/lib/secret.ts:12'))).toEqual({
      status: 500,
      detail: 'internal error',
      retryAfterS: null,
    });
    for (const error of [new AppError('internal', 'x'), new ServiceUnavailableError('x', 3), new Error('x')]) {
      expect(ProblemSchema.safeParse(problemOf(error)).success).toBe(true);
    }
  });
});
