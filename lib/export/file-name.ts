import { NO_CROP } from '../explorer/rows';

/*
 * What an export's file is called, the server's and the browser's alike: whose batches (the organisation's
 * name), which (the range and, where set, the crop) and which of the three files it is, in a name every file
 * system takes.
 */

/** The workbook, the reader's CSV of the table, the service's 18 fields raw, and the printed report (a scheduled report's PDF). */
export type ExportFileKind = 'xlsx' | 'csv' | 'api-csv' | 'pdf';

/**
 * The view a file holds: the organisation's name, its calendar days (or instants: their first ten characters are
 * the day), its crop.
 */
export type ExportFileView = { organisation?: string; from?: string; to?: string; crop?: string };

/** The most characters a crop, or the organisation's name, adds to a name. */
const CROP_CHARS = 40;

const ENDINGS: Record<ExportFileKind, string> = {
  xlsx: '.xlsx',
  csv: '.csv',
  'api-csv': '-api-fields.csv',
  pdf: '-report.pdf',
};

/**
 * Text as a part of a file name that Windows, macOS and Linux all accept and no shell misreads: letters and digits
 * of any script (composed, as macOS and Windows compare them), every run of anything else one `-`, none at
 * either end; empty when nothing is left.
 */
export function fileNamePart(text: string, most = CROP_CHARS): string {
  const kept = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return Array.from(kept).slice(0, most).join('').replace(/-+$/, '');
}

/** `2025-01-01-to-2025-01-31`, `from-2025-01-01`, `until-2025-01-31`, or `all-time`. */
function rangePart(from: string | undefined, to: string | undefined): string {
  const day = (date: string) => fileNamePart(date.slice(0, 10));
  if (from && to) return `${day(from)}-to-${day(to)}`;
  if (from) return `from-${day(from)}`;
  if (to) return `until-${day(to)}`;
  return 'all-time';
}

/**
 * `Greenfield-Seeds-batches-2025-01-01-to-2025-01-31-Lettuce.xlsx`, `….csv`, `…-api-fields.csv`: the
 * organisation first, so that files of several organisations tell apart in a downloads folder, and each kind
 * its own name, so a reader's CSV and the raw one never overwrite each other. A crop with nothing nameable in
 * it is `crop`; batches with none recorded `no-crop`; an organisation's name with nothing nameable in it is
 * left out.
 */
export function exportFileName(view: ExportFileView, kind: ExportFileKind): string {
  const organisation = view.organisation === undefined ? '' : fileNamePart(view.organisation);
  const crop = view.crop === undefined ? '' : view.crop === NO_CROP ? 'no-crop' : fileNamePart(view.crop) || 'crop';
  return `${organisation ? `${organisation}-` : ''}batches-${rangePart(view.from, view.to)}${crop ? `-${crop}` : ''}${ENDINGS[kind]}`;
}

/**
 * `Content-Disposition` for a download named `name`: `filename` in ASCII for every client (accents dropped,
 * other letters a `-`), and RFC 6266's `filename*` in UTF-8 where the name is more than ASCII.
 */
export function attachmentHeader(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^\x21-\x7e]+/g, '-')
    .replace(/["\\]/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+/, '');
  return ascii === name
    ? `attachment; filename="${name}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
