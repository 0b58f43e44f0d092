import 'server-only';
import { getConfig } from '../config';
import type { AlertChannels } from '../alerts/message';
import { alertMail } from './alert-mail';
import type { MailMessage } from './mail-message';
import { sendMail } from './transport';
import { postWebhook, type WebhookPostOptions } from './webhook-post';
import { webhookBody } from './webhook-payload';

/** The origin links in e-mails and webhooks start with: APP_ORIGIN, else where this server listens on this machine. */
export function linkOrigin(): string {
  const config = getConfig();
  if (config.appOrigin) return config.appOrigin;
  const host = ['127.0.0.1', '0.0.0.0', '::', '::1'].includes(config.server.host) ? 'localhost' : config.server.host;
  return new URL(`http://${host.includes(':') ? `[${host}]` : host}:${config.server.port}`).origin;
}

export type ChannelOptions = {
  origin?: string;
  send?: (message: MailMessage) => Promise<unknown>;
  webhook?: Partial<WebhookPostOptions>;
};

/**
 * The channels the watcher sends alerts through: e-mail (sendMail: SMTP, or the .eml folder) and signed
 * webhooks. Each call throws when nothing was delivered, so the watcher records the failure and retries.
 * Options are for tests; the app takes its configuration (APP_ORIGIN, WEBHOOK_ALLOW_PRIVATE).
 */
export function createAlertChannels(options: ChannelOptions = {}): AlertChannels {
  const origin = () => options.origin ?? linkOrigin();
  const send = options.send ?? sendMail;
  return {
    async email(to, messages, digest) {
      await send(alertMail(origin(), to, messages, digest));
    },
    async webhook(hook, message) {
      const body = webhookBody(origin(), hook.format, message);
      // The event id lets a receiver drop a retried delivery it already has (the signature differs each time).
      const allowPrivate = options.webhook?.allowPrivate ?? getConfig().alerts.allowPrivateWebhooks;
      await postWebhook(hook, body, { 'X-Alert-Event': message.id }, { ...options.webhook, allowPrivate });
    },
  };
}
