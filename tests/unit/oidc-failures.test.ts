import { AuthorizationResponseError, ClientError, ResponseBodyError } from 'openid-client';
import { describe, expect, it } from 'vitest';
import { classify, SsoRefusal } from '@/lib/server/auth/oidc/failures';

/** openid-client's own error, with the code its checks give it (the constructor's options carry it). */
const clientError = (message: string, options: { code: string; cause?: unknown }) =>
  new ClientError(message, options as ErrorOptions);

/** openid-client's errors are made by its own code paths; these stand-ins carry the same class and fields. */
function make<T extends object>(Class: abstract new (...args: never[]) => T, fields: Record<string, unknown>): T {
  return Object.assign(Object.create(Class.prototype) as T, fields);
}

describe('what a failed step of single sign-on tells the person', () => {
  it('calls a provider that did not answer, timed out, failed with 5xx or presented an untrusted certificate unreachable', () => {
    const refused = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
    expect(classify(refused)).toMatchObject({ reason: 'unreachable', detail: { cause: 'ECONNREFUSED' } });
    const untrusted = new TypeError('fetch failed', {
      cause: Object.assign(new Error('self-signed'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' }),
    });
    expect(classify(untrusted)).toMatchObject({
      reason: 'unreachable',
      detail: { cause: 'SELF_SIGNED_CERT_IN_CHAIN' },
    });
    expect(classify(clientError('operation timed out', { code: 'OAUTH_TIMEOUT' }))).toMatchObject({
      reason: 'unreachable',
    });
    const gateway = clientError('unexpected HTTP response status code', {
      code: 'OAUTH_RESPONSE_IS_NOT_CONFORM',
      cause: new Response('', { status: 502 }),
    });
    expect(classify(gateway)).toMatchObject({ reason: 'unreachable' });
  });

  it('tells a cancellation from another refusal at the provider', () => {
    expect(classify(make(AuthorizationResponseError, { error: 'access_denied' }))).toMatchObject({
      reason: 'cancelled',
    });
    expect(classify(make(AuthorizationResponseError, { error: 'unauthorized_client' }))).toMatchObject({
      reason: 'provider',
      detail: { providerError: 'unauthorized_client' },
    });
  });

  it('calls a refused code exchange or a failed token check failed, with what the protocol said for the log', () => {
    expect(classify(make(ResponseBodyError, { error: 'invalid_client', status: 401 }))).toMatchObject({
      reason: 'failed',
      detail: { providerError: 'invalid_client', status: 401 },
    });
    expect(
      classify(clientError('unexpected JWT claim value encountered', { code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' })),
    ).toMatchObject({
      reason: 'failed',
      detail: { check: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' },
    });
    expect(
      classify(
        clientError('unexpected HTTP response status code', {
          code: 'OAUTH_RESPONSE_IS_NOT_CONFORM',
          cause: new Response('', { status: 404 }),
        }),
      ),
    ).toMatchObject({
      reason: 'failed',
    });
  });

  it('keeps a refusal the flow decided on, and marks anything else as unexpected', () => {
    expect(classify(new SsoRefusal('domain'))).toMatchObject({ reason: 'domain' });
    expect(classify(new RangeError('bug'))).toMatchObject({ reason: 'failed', detail: { unexpected: 'RangeError' } });
  });
});
