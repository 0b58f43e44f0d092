import { describe, expect, it } from 'vitest';
import { webhookBody } from '@/lib/server/notify/webhook-payload';
import { batch, judged, missesMessage } from '../../helpers/alert-messages';

const ORIGIN = 'https://dash.example.test';
const VIEW = `${ORIGIN}/batches?from=2026-11-20&to=2026-11-27&tz=UTC&below=germination&org=green`;
const message = missesMessage(
  [judged(batch('b1', { germination: 78.2, batch_name: 'Lot <7> & *bold*', comment: 'wet' }))],
  { total: 14 },
);

describe('webhook payloads', () => {
  it('json: the event, the rule, the organisation, each batch with its figures as numbers, and the links', () => {
    const body = JSON.parse(webhookBody(ORIGIN, 'json', message));
    expect(body).toMatchObject({
      id: 'evt-0001',
      type: 'alert',
      firedAt: '2026-11-27T00:05:00Z',
      summary: '14 new batches are below their germination targets',
      organisation: { id: 'org-1', name: 'Green & Co', slug: 'green' },
      rule: { id: 'rule-1', name: 'Germination watch', when: 'misses-target', target: 'germination' },
      finding: { kind: 'batches', total: 14, listed: 1 },
      links: { view: VIEW, alerts: `${ORIGIN}/alerts` },
    });
    expect(body.batches).toEqual([
      {
        id: 'b1',
        name: 'Lot <7> & *bold*',
        createdAt: '2026-11-26T23:30:00Z',
        crop: 'Lettuce',
        germination: 78.2,
        usable: 88.25,
        cv: 12,
        cellsPerTray: 128,
        warnings: false,
        scannedBy: 'ana@grower.test',
        comment: 'wet',
        verdicts: [{ metric: 'germination', target: 80, value: 78.2, misses: true, crop: 'Lettuce' }],
        url: `${VIEW}&batch=b1`,
      },
    ]);
  });

  it("slack: text and blocks an incoming webhook takes, people's text escaped for mrkdwn", () => {
    const body = JSON.parse(webhookBody(ORIGIN, 'slack', message));
    expect(body.text).toBe('Germination watch: 14 new batches are below their germination targets');
    expect(body.blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: 'Germination watch', emoji: false },
    });
    expect(body.blocks[1].text.text).toMatch(
      /^\*14 new batches are below their germination targets\*\nGreen &amp; Co · <!date\^1795737900\^\{date_short_pretty\} \{time\}\|2026-11-27T00:05:00Z>$/,
    );
    expect(body.blocks[2].text.text).toBe(
      `*<${VIEW}&batch=b1|Lot &lt;7&gt; &amp; *bold*>* · Lettuce\nGermination 78.2% ✗ · Usable 88.3% · Size CV 12.0%\n_Below the Lettuce germination target of 80%_`,
    );
    expect(body.blocks[3]).toEqual({ type: 'context', elements: [{ type: 'mrkdwn', text: 'and 13 more batches' }] });
    expect(body.blocks[4].elements[0]).toMatchObject({ type: 'button', url: VIEW });
    for (const block of body.blocks) expect(['header', 'section', 'context', 'actions']).toContain(block.type);
  });

  it("teams: a message with an Adaptive Card, links in its Markdown, people's text escaped", () => {
    const body = JSON.parse(webhookBody(ORIGIN, 'teams', message));
    expect(body.type).toBe('message');
    const [attachment] = body.attachments;
    expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(attachment.content).toMatchObject({
      type: 'AdaptiveCard',
      version: '1.4',
      actions: [{ type: 'Action.OpenUrl', url: VIEW }],
    });
    const container = attachment.content.body[3];
    expect(container.items[0].text).toBe(`[Lot <7\\> & \\*bold\\*](${VIEW}&batch=b1) · Lettuce`);
    expect(container.items[1].facts).toEqual([
      { title: 'Germination', value: '78.2% ✗' },
      { title: 'Usable', value: '88.3%' },
      { title: 'Size CV', value: '12.0%' },
    ]);
    expect(attachment.content.body.at(-1).text).toBe('and 13 more batches');
  });
});
