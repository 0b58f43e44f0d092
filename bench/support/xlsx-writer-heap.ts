import { Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ExcelJS from 'exceljs';
import { DEFAULT_TARGETS, type Batch } from '@/lib/contract';
import { EXPORT_COLUMNS, exportRow } from '@/lib/export/columns';
import { exportWords } from '@/lib/export/strings';
import { MESSAGES } from '@/lib/i18n/messages';

const ENGLISH_WORDS = exportWords(MESSAGES.en);
import { startDataSheet } from '@/lib/export/xlsx';
import { deferSheetLinks, drained } from '@/lib/export/xlsx-streaming';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function batch(i: number): Batch {
  const id = `${String(i).padStart(8, '0')}-4d64-4381-afef-223386427d1e`;
  return {
    batch_id: id,
    batch_name: `Tomato San Marzano · GH${i % 4} · wk${i % 52} #${i}`,
    batch_creation_date: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    crop_type: 'Tomato',
    number_of_images: 12,
    total_cells_per_tray: 128,
    avg_germinated_seedlings: '120.25',
    avg_non_germinated_seedlings: '7.75',
    avg_germination_rate: '93.95',
    avg_usable_seedlings: '110.00',
    avg_non_usable_cells: '18.00',
    avg_usable_seedling_rate: '85.94',
    avg_coefficient_of_variation: '12.30',
    avg_median_seedling_size_mm2: '41.07',
    scanned_by_email: 'a.jansen@greenfield-seeds.example',
    analysis_link: `https://reports.batchscan.example/org-demo/analysis/${id}`,
    comment: i % 7 ? null : 'Re-scan after watering',
    warnings: i % 11 === 0,
  };
}

/**
 * The server's workbook writer (exceljs's streaming WorkbookWriter through lib/export, as lib/server/batches/xlsx-export.ts
 * drives it) fed `rows` synthetic batches into a sink, and the JS heap after a forced collection every 10,000
 * rows: what the writer keeps, without the collector's timing that a process's RSS peak also measures. The
 * Buffers outside the heap (`arrayBuffers`, where exceljs's unpaced streams piled up the XML) are counted too.
 */
export async function writerHeap(rows: number, links = true): Promise<{ start: number; peak: number }> {
  const held = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  const columns = links ? EXPORT_COLUMNS : EXPORT_COLUMNS.filter((c) => c.type !== 'link');
  const data = startDataSheet(
    workbook,
    columns,
    { zone: 'Europe/Berlin', targets: DEFAULT_TARGETS, words: ENGLISH_WORDS },
    null,
  );
  const deferred = deferSheetLinks(data.sheet);
  gc();
  const start = held();
  let peak = start;
  for (let i = 0; i < rows; i++) {
    const b = batch(i);
    data.add(exportRow(b));
    if ((i + 1) % 100 === 0) await drained(data.sheet); // as the server does between chunks
    if ((i + 1) % 10_000 === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      peak = Math.max(peak, held());
    }
  }
  data.sheet.commit();
  await deferred?.write();
  await workbook.commit();
  return { start, peak };
}
