import 'server-only';
import { createTranslator } from 'use-intl/core';
import { isLanguage, LANGUAGE_COOKIE, readerLocale, type Language } from '@/lib/i18n/languages';
import type { Actor } from '../auth/actor';
import { errorFields, logLine } from '../logging';
import type { LinkKind } from '../people/links-store';
import { MAIL_MESSAGES } from './mail-catalogue';
import { renderHtml, renderText, subjectLine, type Block } from './mail-layout';
import type { MailMessage } from './mail-message';
import { mailIsSetUp, sendMail } from './transport';

/** The e-mail carrying an invite or reset link, in `language`. */
export function peopleLinkMail(
  kind: LinkKind,
  input: { to: string; language: Language; organisation: string; by: string; url: string },
): MailMessage {
  const t = createTranslator({
    locale: input.language,
    messages: { people: MAIL_MESSAGES[input.language].people },
    namespace: 'people',
  });
  const subject = subjectLine(
    kind === 'invite' ? t('inviteSubject', { organisation: input.organisation }) : t('resetSubject'),
  );
  const blocks: Block[] = [
    { kind: 'heading', level: 1, text: subject },
    {
      kind: 'paragraph',
      parts: [
        kind === 'invite'
          ? t('invite', { inviter: input.by, organisation: input.organisation })
          : t('reset', { admin: input.by, organisation: input.organisation }),
      ],
    },
    { kind: 'button', text: kind === 'invite' ? t('inviteButton') : t('resetButton'), href: input.url },
    // The address written out too, for a mail program that shows no button.
    { kind: 'paragraph', small: true, parts: [{ text: input.url, href: input.url }] },
    { kind: 'paragraph', parts: [kind === 'invite' ? t('inviteValid') : t('resetValid')] },
    { kind: 'divider' },
    { kind: 'paragraph', small: true, parts: [t('notExpected')] },
  ];
  return { to: input.to, subject, text: renderText(blocks), html: renderHtml(input.language, subject, blocks) };
}

/** The language to write to someone in: their own setting, else the administrator's, else the administrator's browser's. */
export function languageFor(own: string | null | undefined, actor: Actor, request: Request): Language {
  if (isLanguage(own)) return own;
  if (isLanguage(actor.person.language)) return actor.person.language;
  const cookie = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((c) => c.trim().split('='))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  return readerLocale(request.headers.get('accept-language'), cookie).language;
}

/**
 * E-mails an invite or reset link when mail is set up (SMTP_URL); true when the mail server took it. Without a
 * mail server, or when it fails, the link is only copied from the page (false): the invite or reset stands.
 */
export async function mailPeopleLink(
  kind: LinkKind,
  input: { to: string; language: Language; organisation: string; by: string; url: string },
): Promise<boolean> {
  if (!mailIsSetUp()) return false;
  try {
    await sendMail(peopleLinkMail(kind, input));
    return true;
  } catch (error) {
    logLine('warn', `${kind} link not e-mailed`, errorFields(error));
    return false;
  }
}
