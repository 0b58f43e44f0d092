import { describe, expect, it } from 'vitest';
import { isPrivateAddress, webhookTarget } from '../../../lib/server/notify/webhook-target';

describe('webhook targets', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ])('%s is private', (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );

  const resolving = (addresses: string[]) => async () => addresses;

  it('refuses loopback and private targets, by address and by a name resolving to one (any of its addresses)', async () => {
    expect(await webhookTarget('http://127.0.0.1:9000/hook', false)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('WEBHOOK_ALLOW_PRIVATE=1'),
    });
    expect(await webhookTarget('http://[::1]/hook', false)).toMatchObject({ ok: false });
    expect(
      await webhookTarget('https://hooks.example.com/x', false, resolving(['93.184.215.14', '10.0.0.5'])),
    ).toMatchObject({ ok: false });
    expect(await webhookTarget('https://hooks.example.com/x', false, resolving(['93.184.215.14']))).toMatchObject({
      ok: true,
      addresses: ['93.184.215.14'],
    });
  });

  it('allows private targets when the deployment does', async () => {
    expect(await webhookTarget('http://127.0.0.1:9000/hook', true)).toMatchObject({
      ok: true,
      addresses: ['127.0.0.1'],
    });
  });

  it('refuses other schemes, credentials in the URL and names that do not resolve', async () => {
    expect(await webhookTarget('file:///etc/passwd', true)).toMatchObject({
      ok: false,
      problem: 'must be an http or https URL',
    });
    expect(await webhookTarget('https://user:pw@example.com/', true, resolving(['93.184.215.14']))).toMatchObject({
      ok: false,
    });
    expect(
      await webhookTarget('https://nowhere.invalid/', true, async () => Promise.reject(new Error('ENOTFOUND'))),
    ).toMatchObject({ ok: false });
    expect(await webhookTarget('not a url', true)).toMatchObject({ ok: false, problem: 'is not a URL' });
  });
});
