import * as z from 'zod/mini';
import { recordEntry } from '@/lib/server/audit/record';
import { otherMethods } from '@/lib/server/http/methods';
import { route } from '@/lib/server/http/route';
import { escapeHtml } from '@/lib/server/notify/mail-layout';
import { settingsStore } from '@/lib/server/settings';
import { LANGUAGE_COOKIE, readerLocale } from '@/lib/i18n/languages';
import { MESSAGES } from '@/lib/i18n/messages';

/**
 * The unsubscribe link of an outside address in an alert's e-mails. GET asks (a link a mail scanner follows
 * must change nothing), POST does it: the page's button, or a mail program's one-click (List-Unsubscribe-Post).
 * The token names the rule and the address, signed with the rule's own key.
 */
const Query = z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(1000)) });

function page(request: Request, status: number, body: (t: ReturnType<typeof texts>) => string): Response {
  const t = texts(request);
  const html = `<!doctype html><html lang="${t.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(t.say('title'))}</title><style>:root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}h1{font-size:1.5rem}button{font:inherit;padding:.4rem 1rem}</style></head><body><h1>${escapeHtml(t.say('title'))}</h1>${body(t)}</body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'x-robots-tag': 'noindex' },
  });
}

function texts(request: Request) {
  const cookie = /(?:^|;\s*)([^=;]+)=([^;]*)/g;
  let chosen: string | null = null;
  for (const [, name, value] of (request.headers.get('cookie') ?? '').matchAll(cookie))
    if (name === LANGUAGE_COOKIE) chosen = value ?? null;
  const reader = readerLocale(request.headers.get('accept-language'), chosen);
  const words = MESSAGES[reader.language].people.alertUnsubscribe;
  // Plain `{rule}` and `{email}` placeholders: no ICU formatting needed (nor its compiler on this path).
  const say = (key: keyof typeof words, values?: { rule: string; email: string }) =>
    words[key].replace(/\{(rule|email)\}/g, (_, name: 'rule' | 'email') => values?.[name] ?? '');
  return { lang: reader.language, say };
}

export const GET = route({ auth: false, query: Query }, async ({ request, query }) => {
  const target = await settingsStore().alerts.unsubscribeTarget(query.token);
  if (!target) return page(request, 404, (t) => `<p>${escapeHtml(t.say('invalid'))}</p>`);
  const values = { rule: target.ruleName, email: target.email };
  if (!target.subscribed) return page(request, 200, (t) => `<p>${escapeHtml(t.say('gone', values))}</p>`);
  return page(
    request,
    200,
    (t) =>
      `<p>${escapeHtml(t.say('ask', values))}</p><form method="post"><button type="submit">${escapeHtml(t.say('confirm'))}</button></form>`,
  );
});

export const POST = route({ auth: false, query: Query }, async ({ request, query, address }) => {
  const target = await settingsStore().alerts.unsubscribeTarget(query.token);
  if (!target) return page(request, 404, (t) => `<p>${escapeHtml(t.say('invalid'))}</p>`);
  const removed = await settingsStore().alerts.removeRecipient(target.organisationId, target.ruleId, target.email);
  if (removed) {
    await recordEntry({
      organisationId: target.organisationId,
      actor: { id: null, email: target.email, name: '' },
      action: 'alert_unsubscribed',
      subject: target.ruleName,
      before: { recipient: target.email },
      address,
      method: null,
    });
  }
  return page(
    request,
    200,
    (t) => `<p>${escapeHtml(t.say('done', { rule: target.ruleName, email: target.email }))}</p>`,
  );
});

export const { HEAD, OPTIONS, PUT, PATCH, DELETE } = otherMethods({ GET, POST });
