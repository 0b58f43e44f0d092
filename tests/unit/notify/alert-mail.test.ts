import { describe, expect, it } from 'vitest';
import { createTranslator } from 'use-intl/core';
import { MAIL_MESSAGES } from '@/lib/server/notify/mail-catalogue';
import { MAX_LISTED_BATCHES } from '@/lib/contract/alerts';
import type { AlertMessage } from '@/lib/server/alerts/message';
import { alertMail } from '@/lib/server/notify/alert-mail';
import { escapeHtml } from '@/lib/server/notify/mail-layout';
import { batch, judged, missesMessage, OUTSIDE, PERSON, TARGETS } from '../../helpers/alert-messages';

const ORIGIN = 'https://dash.example.test';
const NBSP = /[\u00a0\u202f]/g;
const plain = (s: string) => s.replace(NBSP, ' ');
const VIEW = `${ORIGIN}/batches?from=2026-11-20&to=2026-11-27&tz=UTC&below=germination&org=green`;

describe('an immediate alert e-mail', () => {
  const fired = [
    judged(batch('b1', { germination: 78.2, comment: 'Tray 3 dry' })),
    judged(batch('b2', { germination: 79.96, crop_type: null, warnings: true })),
  ];

  it("says the finding, each batch with its figures, its verdict as the page words it, and links to it and the view (English, the reader's zone)", () => {
    const mail = alertMail(ORIGIN, PERSON, [missesMessage(fired)], null);
    expect(mail.to).toBe('ana@grower.test');
    expect(mail.subject).toBe('Germination watch: 2 new batches are below their germination targets');
    const text = plain(mail.text);
    expect(text).toContain('The alert “Germination watch” of Green & Co found this at Nov 27, 2026, 1:05 AM.');
    // 23:30 UTC is 00:30 in Berlin, the next day.
    expect(text).toContain('Created Nov 27, 2026, 12:30 AM · Lettuce · scanned by ana@grower.test');
    expect(text).toContain('Germination 78.2% (!) · Usable 88.3% · Size CV 12.0%');
    expect(text).toContain('Below the Lettuce germination target of 80%');
    expect(text).toContain('Below the general germination target of 90%');
    expect(text).toContain('No crop · scanned by ana@grower.test · Has warnings');
    expect(text).toContain('“Tray 3 dry”');
    expect(text).toContain(`${VIEW}&batch=b1`);
    expect(text).toContain(`Open them in the dashboard: ${VIEW}`);
    expect(text).toContain('Lettuce | 80% | 75% | 30%');
    expect(text).toContain('General (any other crop) | 90% | not set | not set');
    expect(text).toContain('Times are in Europe/Berlin.');
    expect(text).toContain(`Manage your alerts <${ORIGIN}/alerts>`);
    expect(mail.html).toContain(`href="${escapeHtml(`${VIEW}&batch=b2`)}"`);
    expect(mail.html).toMatch(/^<!DOCTYPE html><html lang="en">/);
    // A person manages their alerts in the app: no unsubscribe header.
    expect(mail.headers).toBeUndefined();
  });

  it('writes a figure with the decimals its verdict needs (79.96 against 80 is not "80.0")', () => {
    const close = judged(batch('b3', { germination: 79.96 }));
    expect(plain(alertMail(ORIGIN, PERSON, [missesMessage([close])], null).text)).toContain('Germination 79.96% (!)');
  });

  it("in German and Dutch, in the recipient's notation and zone", () => {
    const de = alertMail(
      ORIGIN,
      { ...PERSON, language: 'de', timeZone: 'America/New_York' },
      [missesMessage(fired)],
      null,
    );
    expect(de.subject).toBe('Germination watch: 2 neue Chargen liegen unter ihren Keimraten-Sollwerten');
    expect(plain(de.text)).toContain('Erstellt 26.11.2026, 18:30 · Lettuce');
    expect(plain(de.text)).toContain('Keimrate 78,2 % (!) · Nutzbar 88,3 % · Größen-VK 12,0 %');
    expect(plain(de.text)).toContain('Unter dem Keimraten-Sollwert für Lettuce von 80 %');
    expect(plain(de.text)).toContain('Zeiten in America/New_York.');
    expect(de.html).toContain('<html lang="de">');
    const nl = alertMail(ORIGIN, { ...PERSON, language: 'nl', timeZone: 'Asia/Tokyo' }, [missesMessage(fired)], null);
    expect(nl.subject).toBe('Germination watch: 2 nieuwe batches zitten onder hun kiemingsdoel');
    expect(plain(nl.text)).toContain('Aangemaakt 27 nov 2026, 08:30');
    expect(plain(nl.text)).toContain('Onder het kiemingsdoel voor Lettuce van 80%');
  });

  it("escapes people's text in the HTML: batch names, comments, crop and rule names", () => {
    const hostile = judged(
      batch('b<1>', {
        batch_name: '<img src=x onerror=alert(1)> & "Lot"',
        comment: '</td><script>x()</script>',
        crop_type: 'Let<tuce>',
      }),
      { ...TARGETS, crops: { 'Let<tuce>': TARGETS.crops.Lettuce! } },
    );
    const rule = { ...missesMessage([]).rule, name: 'Watch <b>this</b>' };
    const mail = alertMail(ORIGIN, PERSON, [missesMessage([hostile], { rule })], null);
    expect(mail.html).not.toMatch(/<img|<script|<b>this/);
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Lot&quot;');
    expect(mail.html).toContain('&lt;/td&gt;&lt;script&gt;x()&lt;/script&gt;');
    expect(mail.html).toContain('Watch &lt;b&gt;this&lt;/b&gt;');
    expect(mail.html).toContain('batch=b%3C1%3E');
    // The plain part and the subject say it as written.
    expect(mail.subject).toBe('Watch <b>this</b>: 1 new batch is below its germination target');
    expect(mail.text).toContain('<img src=x onerror=alert(1)> & "Lot"');
  });

  it('lists at most MAX_LISTED_BATCHES, then "and N more" with the link to all of them', () => {
    const many = Array.from({ length: MAX_LISTED_BATCHES + 3 }, (_, i) => judged(batch(`m${i}`, { germination: 50 })));
    const mail = alertMail(ORIGIN, PERSON, [missesMessage(many, { total: 40 })], null);
    expect(mail.subject).toBe('Germination watch: 40 new batches are below their germination targets');
    expect(mail.text.match(/^\* /gm)).toHaveLength(MAX_LISTED_BATCHES);
    expect(mail.text).toContain(`and 20 more batches <${VIEW}>`);
  });

  it("to an outside address: in the organisation's language, with an unsubscribe link and List-Unsubscribe headers", () => {
    const mail = alertMail(ORIGIN, OUTSIDE, [missesMessage(fired)], null);
    const url = `${ORIGIN}/api/alerts/unsubscribe?token=tok123`;
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail.text).toContain(
      `weil eine Administratorin oder ein Administrator dort sie eingetragen hat. Abbestellen <${url}>`,
    );
    expect(mail.html).toContain(`href="${escapeHtml(url)}"`);
  });

  it("says a control-chart signal with the chart's own limits, and a silence with the last batch", () => {
    const signal: AlertMessage = {
      ...missesMessage([]),
      rule: { ...missesMessage([]).rule, name: 'Lettuce drift', when: 'control-signal' },
      finding: {
        kind: 'control-signal',
        crop: 'Lettuce',
        metric: 'germination',
        signal: 'limits',
        batches: [judged(batch('c1', { germination: 61 }))],
        total: 1,
        limits: { centre: 88.4, lcl: 79.1, ucl: 97.7 },
      },
      viewPath: '/batches?crop=Lettuce&spc=Lettuce&org=green',
    };
    const mail = alertMail(ORIGIN, PERSON, [signal], null);
    expect(mail.subject).toBe('Lettuce drift: Lettuce: 1 batch beyond the control limits of Germination');
    expect(mail.text).toContain('centre line 88.4%, control limits 79.1% to 97.7%');
    expect(mail.text).toContain(`Open the control chart: ${ORIGIN}/batches?crop=Lettuce&spc=Lettuce&org=green`);

    const silent: AlertMessage = {
      ...signal,
      rule: { ...signal.rule, name: 'Quiet', when: 'silent' },
      finding: { kind: 'silent', by: 'scanner', who: 'ana@grower.test', days: 3, lastAt: '2026-11-23T10:00:00Z' },
    };
    const de = alertMail(ORIGIN, { ...PERSON, language: 'de' }, [silent], null);
    expect(de.subject).toBe('Quiet: Seit 3 Tagen keine Charge gescannt von ana@grower.test');
    expect(de.text).toContain('Die letzte wurde am 23.11.2026, 11:00 gescannt.');
  });
});

describe('a digest', () => {
  const lettuce = missesMessage(
    [judged(batch('l1', { germination: 70 })), judged(batch('n1', { germination: 60, crop_type: null }))],
    { id: 'e1' },
  );
  const basil = missesMessage([judged(batch('b1', { germination: 50, crop_type: 'Basil' }))], {
    id: 'e2',
    firedAt: '2026-11-27T05:00:00Z',
    rule: { ...lettuce.rule, name: 'Basil watch', when: 'warnings', target: null },
  });
  const silent: AlertMessage = {
    ...lettuce,
    id: 'e3',
    rule: { ...lettuce.rule, name: 'Quiet scanners', when: 'silent' },
    finding: { kind: 'silent', by: 'scanner', who: 'bo@grower.test', days: 5, lastAt: null },
  };

  it('lists everything since the last one, grouped by crop (crops by name, then batches without a crop, then the rest)', () => {
    const mail = alertMail(ORIGIN, PERSON, [lettuce, basil, silent], {
      cadence: 'daily',
      since: '2026-11-26T06:00:00Z',
    });
    expect(mail.subject).toBe('Daily alert digest for Green & Co: 3 alerts');
    const text = plain(mail.text);
    expect(text).toContain('Everything the alerts of Green & Co found since Nov 26, 2026, 7:00 AM.');
    const headings = [...text.matchAll(/^(.+)\n-+$/gm)].map((m) => m[1]);
    expect(headings).toEqual([
      'Basil',
      'Basil watch',
      'Lettuce',
      'Germination watch',
      'Batches without a crop',
      'Germination watch',
      'Not about one crop',
      'Quiet scanners',
      'Targets',
    ]);
    expect(text).toContain('1 new batch has warnings');
    expect(text).toContain('No batch scanned by bo@grower.test for 5 days');
    expect(text).toContain('None is on record.');
    expect(text).toContain('You receive this daily digest because alerts of Green & Co are sent to you.');
  });

  it('hourly, in Dutch', () => {
    const mail = alertMail(ORIGIN, { ...PERSON, language: 'nl' }, [basil], {
      cadence: 'hourly',
      since: '2026-11-27T04:00:00Z',
    });
    expect(mail.subject).toBe('Overzicht per uur voor Green & Co: 1 melding');
    expect(mail.text).toContain('1 nieuwe batch heeft waarschuwingen');
  });

  it('refuses an immediate e-mail of several messages (that is a digest)', () => {
    expect(() => alertMail(ORIGIN, PERSON, [lettuce, basil], null)).toThrow(/one message/);
  });
});

describe("the e-mails' catalogue (messages/<language>/mail.json)", () => {
  const flat = (o: object, prefix = ''): [string, string][] =>
    Object.entries(o).flatMap(([k, v]) =>
      typeof v === 'string' ? [[prefix + k, v] as [string, string]] : flat(v as object, `${prefix}${k}.`),
    );

  it.each(['en', 'de', 'nl'] as const)('%s: every message formats, with every count', (language) => {
    const errors: string[] = [];
    const t = createTranslator({
      locale: language,
      messages: MAIL_MESSAGES[language],
      onError: (e) => errors.push(e.message),
    });
    for (const [key, message] of flat(MAIL_MESSAGES[language])) {
      for (const n of [0, 1, 2, 21]) {
        const values = Object.fromEntries([...message.matchAll(/\{(\w+)(?=[,}])/g)].map((m) => [m[1], n]));
        const out = t(key as never, values as never) as string;
        expect(out, key).not.toMatch(/[{}]/);
      }
    }
    expect(errors).toEqual([]);
  });
});
