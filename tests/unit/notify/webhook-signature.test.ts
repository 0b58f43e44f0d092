import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhookSignature } from '@/lib/server/notify/webhook-signature';

const SECRET = 'whsec-abc';
const BODY = '{"id":"evt-1"}';
const AT = 1_764_200_000_000;
// Worked out apart from our code (Python's hmac): HMAC-SHA256 of `1764200000.{"id":"evt-1"}` under `whsec-abc`.
const EXPECTED = 'sha256=5ae2bc9705ed83658072045412711c6fc3b46c1a1de9802706a9da8ba222dc09';

describe('webhook signatures', () => {
  it('signs "<unix seconds>.<body>" with HMAC-SHA256 under the secret', () => {
    expect(signWebhook(SECRET, BODY, AT + 999)).toEqual({
      'X-Signature-Timestamp': '1764200000',
      'X-Signature-256': EXPECTED,
    });
  });

  it("verifies its own signature from a Headers or from Node's lower-case header object", () => {
    const headers = signWebhook(SECRET, BODY, AT);
    expect(verifyWebhookSignature(SECRET, new Headers(headers), BODY, AT + 60_000)).toEqual({
      ok: true,
      timestamp: 1_764_200_000,
    });
    expect(
      verifyWebhookSignature(
        SECRET,
        {
          'x-signature-timestamp': '1764200000',
          'x-signature-256': EXPECTED.toUpperCase().replace('SHA256=', 'sha256='),
        },
        Buffer.from(BODY),
        AT,
      ),
    ).toMatchObject({ ok: true });
  });

  it('refuses another body, another secret, a moved timestamp, missing or malformed headers', () => {
    const headers = signWebhook(SECRET, BODY, AT);
    expect(verifyWebhookSignature(SECRET, headers, '{"id":"evt-2"}', AT)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/does not match/),
    });
    expect(verifyWebhookSignature('other', headers, BODY, AT)).toMatchObject({ ok: false });
    expect(
      verifyWebhookSignature(SECRET, { ...headers, 'X-Signature-Timestamp': '1764200001' }, BODY, AT),
    ).toMatchObject({ ok: false });
    expect(verifyWebhookSignature(SECRET, { 'X-Signature-256': EXPECTED }, BODY, AT)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/Timestamp/),
    });
    expect(verifyWebhookSignature(SECRET, { ...headers, 'X-Signature-256': 'sha256=abc' }, BODY, AT)).toMatchObject({
      ok: false,
    });
  });

  it('refuses a timestamp outside the window either way (a replay later, or a clock far off)', () => {
    const headers = signWebhook(SECRET, BODY, AT);
    expect(verifyWebhookSignature(SECRET, headers, BODY, AT + 300_000)).toMatchObject({ ok: true });
    expect(verifyWebhookSignature(SECRET, headers, BODY, AT + 301_000)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/replay/),
    });
    expect(verifyWebhookSignature(SECRET, headers, BODY, AT - 301_000)).toMatchObject({ ok: false });
    expect(verifyWebhookSignature(SECRET, headers, BODY, AT + 3_000_000, 3600)).toMatchObject({ ok: true });
  });
});
