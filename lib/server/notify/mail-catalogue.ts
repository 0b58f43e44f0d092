import 'server-only';
import type { Language } from '@/lib/i18n/languages';
import deMail from '@/messages/de/mail.json';
import enMail from '@/messages/en/mail.json';
import nlMail from '@/messages/nl/mail.json';

/** The e-mails' words (messages/<language>/mail.json): the server's alone, the pages never ship them to the browser. */
export const MAIL_MESSAGES: Record<Language, typeof enMail> = { en: enMail, de: deMail, nl: nlMail };
