import 'server-only';

/**
 * An e-mail's content as a few kinds of block, written out twice: as HTML (inline styles and tables, what mail
 * clients render) and as plain text (its alternative part). Every text is escaped here, once: batch names,
 * comments, crop and rule names are people's own text.
 */
export type Inline = string | { text: string; href: string };

/** One batch as a card: its name (a link), a line of facts, its figures (a missed one marked), verdicts in words. */
export type BatchCard = {
  name: string;
  href: string;
  facts: string;
  figures: { label: string; value: string; missed: boolean }[];
  verdicts: string[];
  comment: string | null;
};

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; parts: Inline[]; small?: boolean }
  | { kind: 'batches'; cards: BatchCard[] }
  | { kind: 'table'; head: string[]; rows: string[][] }
  | { kind: 'button'; text: string; href: string }
  | { kind: 'divider' };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** Control characters (a newline in a batch name) would break a line of the text part or a header. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ');

const INK = '#1f2933';
const MUTED = '#52606d';
const MISSED = '#b42318';
const ACCENT = '#0b6e4f';
const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

function inlineHtml(parts: Inline[]): string {
  return parts
    .map((p) =>
      typeof p === 'string'
        ? escapeHtml(p)
        : `<a href="${escapeHtml(p.href)}" style="color:${ACCENT}">${escapeHtml(p.text)}</a>`,
    )
    .join('');
}

function cardHtml(card: BatchCard): string {
  const figures = card.figures
    .map(
      (f) =>
        `<span style="white-space:nowrap;${f.missed ? `color:${MISSED};font-weight:600` : ''}">${escapeHtml(f.label)} ${escapeHtml(f.value)}</span>`,
    )
    .join(' &middot; ');
  const verdicts = card.verdicts.map((v) => `<div style="color:${MISSED}">${escapeHtml(v)}</div>`).join('');
  const comment = card.comment
    ? `<div style="color:${MUTED};font-style:italic">${escapeHtml(oneLine(card.comment))}</div>`
    : '';
  return (
    `<tr><td style="padding:10px 0;border-top:1px solid #d9e2ec">` +
    `<div><a href="${escapeHtml(card.href)}" style="color:${ACCENT};font-weight:600">${escapeHtml(oneLine(card.name))}</a></div>` +
    `<div style="color:${MUTED};font-size:13px">${escapeHtml(oneLine(card.facts))}</div>` +
    `<div style="margin-top:4px">${figures}</div>${verdicts}${comment}</td></tr>`
  );
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'heading': {
      const size = { 1: 20, 2: 17, 3: 15 }[block.level];
      return `<h${block.level} style="font-size:${size}px;margin:20px 0 8px;color:${INK}">${escapeHtml(oneLine(block.text))}</h${block.level}>`;
    }
    case 'paragraph':
      return `<p style="margin:8px 0;${block.small ? `font-size:12px;color:${MUTED}` : ''}">${inlineHtml(block.parts)}</p>`;
    case 'batches':
      return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">${block.cards.map(cardHtml).join('')}</table>`;
    case 'table': {
      const cell = (tag: 'th' | 'td', text: string, i: number) =>
        `<${tag} style="padding:4px 12px 4px 0;text-align:${i === 0 ? 'left' : 'right'};${tag === 'th' ? `color:${MUTED};font-weight:600` : ''}">${escapeHtml(oneLine(text))}</${tag}>`;
      return (
        `<table cellpadding="0" cellspacing="0" style="border-collapse:collapse;font-size:13px">` +
        `<thead><tr>${block.head.map((h, i) => cell('th', h, i)).join('')}</tr></thead>` +
        `<tbody>${block.rows.map((r) => `<tr>${r.map((c, i) => cell('td', c, i)).join('')}</tr>`).join('')}</tbody></table>`
      );
    }
    case 'button':
      return `<p style="margin:16px 0"><a href="${escapeHtml(block.href)}" style="display:inline-block;padding:10px 16px;background:${ACCENT};color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(block.text)}</a></p>`;
    case 'divider':
      return '<hr style="border:0;border-top:1px solid #d9e2ec;margin:24px 0 8px">';
  }
}

/** The HTML part: a document in `language`, readable without images or styles. */
export function renderHtml(language: string, title: string, blocks: Block[]): string {
  return (
    `<!DOCTYPE html><html lang="${escapeHtml(language)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(oneLine(title))}</title></head>` +
    `<body style="margin:0;padding:16px;background:#ffffff;color:${INK};font-family:${FONT};font-size:14px;line-height:1.45">` +
    `<div style="max-width:640px;margin:0 auto">${blocks.map(blockHtml).join('\n')}</div></body></html>`
  );
}

const inlineText = (parts: Inline[]) =>
  parts.map((p) => (typeof p === 'string' ? p : p.text === p.href ? p.href : `${p.text} <${p.href}>`)).join('');

function blockText(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return block.level === 1
        ? `${oneLine(block.text)}\n${'='.repeat(Math.min(oneLine(block.text).length, 72))}`
        : `${oneLine(block.text)}\n${'-'.repeat(Math.min(oneLine(block.text).length, 72))}`;
    case 'paragraph':
      return inlineText(block.parts);
    case 'batches':
      return block.cards
        .map((c) =>
          [
            `* ${oneLine(c.name)}`,
            `  ${oneLine(c.facts)}`,
            `  ${c.figures.map((f) => `${f.label} ${f.value}${f.missed ? ' (!)' : ''}`).join(' · ')}`,
            ...c.verdicts.map((v) => `  ${v}`),
            ...(c.comment ? [`  “${oneLine(c.comment)}”`] : []),
            `  ${c.href}`,
          ].join('\n'),
        )
        .join('\n\n');
    case 'table':
      return [block.head, ...block.rows].map((r) => r.map(oneLine).join(' | ')).join('\n');
    case 'button':
      return `${block.text}: ${block.href}`;
    case 'divider':
      return '--';
  }
}

/** The plain-text part: the same blocks, links written out. */
export function renderText(blocks: Block[]): string {
  return `${blocks.map(blockText).join('\n\n')}\n`;
}

/** A subject line: one line, at most 200 characters (user text such as a rule's name goes into it). */
export function subjectLine(text: string): string {
  const line = oneLine(text).replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
