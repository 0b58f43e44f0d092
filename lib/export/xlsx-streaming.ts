import { once } from 'node:events';
import type { Worksheet } from 'exceljs';

/*
 * Back-pressure that exceljs's streaming WorkbookWriter (4.4.0, pinned) does not apply, found by a heap snapshot
 * of 100,000 rows (the Buffers sit outside the JS heap, which is why heap measurements missed them):
 *
 * - Each part of the workbook is written to a StreamBuf that, in its batch mode, writes on to the archiver's
 *   entry stream without waiting for it: when the rows come faster than zlib deflates them (zlib runs on the
 *   thread pool, the rows on the main thread), the XML piles up in that stream's write buffer. `drained()`
 *   waits for it.
 * - Each hyperlink's relationship is written to the sheet's rels part as its row is written. That part is a
 *   zip entry queued behind the sheet's own, read only once the sheet has ended: until then every relationship
 *   waits in a buffer, about 500 bytes a link (50 MB at 100,000 rows). `deferSheetLinks` keeps them as their
 *   targets (a string a link) and writes them after the sheet, a slice at a time, each once the archiver has
 *   taken the one before.
 * - The sheet's own `<hyperlinks>` list (cell and relationship id, written after the rows) is built by
 *   exceljs as one XML document of objects at the end: tens of MB of garbage at once for 100,000 links. It is
 *   written here from the cells' addresses, a slice of plain text at a time.
 */

type Piped = { _writableState?: { needDrain?: boolean } };
type StreamBufLike = NodeJS.WritableStream & { pipes?: Piped[] };

/** Resolves once the archiver has taken what was written to `stream` (a StreamBuf), or at once if it cannot tell. */
async function entryDrained(stream: StreamBufLike | undefined, signal?: AbortSignal): Promise<void> {
  for (const pipe of stream?.pipes ?? []) {
    if (pipe._writableState?.needDrain) await once(pipe as unknown as NodeJS.EventEmitter, 'drain', { signal });
  }
}

/** Waits until the archiver has taken the sheet's rows written so far (call between batches of rows). */
export function drained(sheet: Worksheet, signal?: AbortSignal): Promise<void> {
  return entryDrained((sheet as unknown as { stream?: StreamBufLike }).stream, signal);
}

type Relationship = { Id?: string; Type: string; Target: string; TargetMode?: string };
type SheetRelsWriter = {
  count: number;
  addHyperlink(hyperlink: { address: string; target: string }): void;
  _writeRelationship(relationship: Relationship): string;
  commit(): void;
  readonly stream: StreamBufLike;
};

const HYPERLINK = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink';
const OPEN =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">';
/** Relationships written at once. */
const SLICE = 2000;

const attr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

function xmlOf(rId: number, r: string | Relationship): string {
  if (typeof r === 'string')
    return `<Relationship Id="rId${rId}" Type="${HYPERLINK}" Target="${attr(r)}" TargetMode="External"/>`;
  const mode = r.TargetMode ? ` TargetMode="${r.TargetMode}"` : '';
  return `<Relationship Id="rId${rId}" Type="${r.Type}" Target="${r.TargetMode ? attr(r.Target) : r.Target}"${mode}/>`;
}

/**
 * Keeps a streaming sheet's relationships until `write()`, to be called after the sheet is committed and
 * before the workbook is. Returns null (and changes nothing) when exceljs is not the one this was written for.
 */
export function deferSheetLinks(sheet: Worksheet): { write(signal?: AbortSignal): Promise<void> } | null {
  const writer = sheet as unknown as {
    _sheetRelsWriter?: SheetRelsWriter;
    _writeHyperlinks?: () => void;
    stream?: StreamBufLike;
  };
  const rels = writer._sheetRelsWriter;
  if (
    !rels ||
    typeof rels._writeRelationship !== 'function' ||
    typeof rels.addHyperlink !== 'function' ||
    typeof rels.commit !== 'function'
  )
    return null;
  if (typeof writer._writeHyperlinks !== 'function' || rels.count !== 0) return null;
  // A hyperlink's relationship as its target alone; anything else (none in our sheets) as it is.
  const kept: (string | Relationship)[] = [];
  // The sheet's hyperlinks: the cell's address and the number of its relationship.
  const cells: string[] = [];
  const ids: number[] = [];
  rels._writeRelationship = (r) => {
    kept.push(r.Type === HYPERLINK && r.TargetMode === 'External' ? r.Target : r);
    return `rId${++rels.count}`;
  };
  rels.addHyperlink = ({ address, target }) => {
    rels._writeRelationship({ Type: HYPERLINK, Target: target, TargetMode: 'External' });
    cells.push(address);
    ids.push(rels.count);
  };
  rels.commit = () => undefined;
  writer._writeHyperlinks = () => {
    if (cells.length === 0) return;
    let xml = '<hyperlinks>';
    for (let i = 0; i < cells.length; i++) {
      xml += `<hyperlink ref="${cells[i]}" r:id="rId${ids[i]}"/>`;
      if ((i + 1) % SLICE === 0) {
        writer.stream!.write(xml);
        xml = '';
      }
    }
    writer.stream!.write(`${xml}</hyperlinks>`);
    cells.length = 0;
    ids.length = 0;
  };
  return {
    async write(signal) {
      if (kept.length === 0) return;
      const stream = rels.stream; // the zip entry is queued now, behind the sheet's
      stream.write(OPEN);
      for (let from = 0; from < kept.length; from += SLICE) {
        let xml = '';
        for (let i = from; i < Math.min(kept.length, from + SLICE); i++) xml += xmlOf(i + 1, kept[i]!);
        stream.write(xml);
        await entryDrained(stream, signal);
      }
      kept.length = 0;
      stream.write('</Relationships>');
      stream.end();
    },
  };
}
