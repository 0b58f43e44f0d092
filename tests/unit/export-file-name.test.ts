import { describe, expect, it } from 'vitest';
import { attachmentHeader, exportFileName, fileNamePart } from '@/lib/export/file-name';
import { exportName } from '@/lib/explorer/export-csv';
import { NO_CROP } from '@/lib/explorer/rows';

/** Characters Windows refuses in a file name (and `/`, which no system takes), and controls. */
const UNSAFE = /[<>:"/\\|?*\u0000-\u001f\u007f]/;
const range = { from: '2025-01-01', to: '2025-01-31' };

describe('export file names', () => {
  it('name the range and which file it is, each kind its own', () => {
    expect(exportFileName(range, 'xlsx')).toBe('batches-2025-01-01-to-2025-01-31.xlsx');
    expect(exportFileName(range, 'csv')).toBe('batches-2025-01-01-to-2025-01-31.csv');
    expect(exportFileName(range, 'api-csv')).toBe('batches-2025-01-01-to-2025-01-31-api-fields.csv');
  });

  it('say an open end as such', () => {
    expect(exportFileName({}, 'csv')).toBe('batches-all-time.csv');
    expect(exportFileName({ from: '2025-03-01' }, 'xlsx')).toBe('batches-from-2025-03-01.xlsx');
    expect(exportFileName({ to: '2025-03-31' }, 'api-csv')).toBe('batches-until-2025-03-31-api-fields.csv');
    // The server's ends are instants: their day.
    expect(exportFileName({ from: '2025-01-01T00:00:00Z', to: '2025-12-31T23:59:59+01:00' }, 'xlsx')).toBe(
      'batches-2025-01-01-to-2025-12-31.xlsx',
    );
  });

  it('name the crop where one is chosen, in any script, safe on every file system', () => {
    expect(exportFileName({ ...range, crop: 'Lettuce' }, 'xlsx')).toBe('batches-2025-01-01-to-2025-01-31-Lettuce.xlsx');
    expect(exportFileName({ ...range, crop: 'Bell pepper' }, 'csv')).toBe(
      'batches-2025-01-01-to-2025-01-31-Bell-pepper.csv',
    );
    expect(exportFileName({ ...range, crop: 'Pak choi 小白菜' }, 'api-csv')).toBe(
      'batches-2025-01-01-to-2025-01-31-Pak-choi-小白菜-api-fields.csv',
    );
    expect(exportFileName({ ...range, crop: NO_CROP }, 'csv')).toBe('batches-2025-01-01-to-2025-01-31-no-crop.csv');
    for (const hostile of [
      '../../etc/passwd',
      'CON',
      'a:b*c?"d"<e>|f\\g',
      ' trailing. ',
      '\u0000\r\n=cmd|x',
      '🌱🌱',
      'Ünïcödé'.normalize('NFD'),
      'x'.repeat(500),
    ]) {
      const name = exportFileName({ ...range, crop: hostile }, 'csv');
      expect(name, hostile).not.toMatch(UNSAFE);
      expect(name, hostile).toMatch(/^batches-2025-01-01-to-2025-01-31-[^.]+\.csv$/);
      expect(name.length, hostile).toBeLessThanOrEqual(80);
      expect(name, hostile).not.toMatch(/--|-\.csv$/);
    }
    expect(exportFileName({ crop: '🌱' }, 'csv')).toBe('batches-all-time-crop.csv');
    // Composed as macOS and Windows compare names.
    expect(fileNamePart('Ünïcödé'.normalize('NFD'))).toBe('Ünïcödé'.normalize('NFC'));
  });

  it('begin with the organisation’s name, so that several organisations’ files tell apart', () => {
    expect(exportFileName({ organisation: 'Greenfield Seeds (demo)', ...range }, 'xlsx')).toBe(
      'Greenfield-Seeds-demo-batches-2025-01-01-to-2025-01-31.xlsx',
    );
    expect(exportFileName({ organisation: 'Spécial & Co', crop: 'Lettuce' }, 'api-csv')).toBe(
      'Spécial-Co-batches-all-time-Lettuce-api-fields.csv',
    );
    expect(exportFileName({ organisation: '青岛种业', ...range }, 'csv')).toBe(
      '青岛种业-batches-2025-01-01-to-2025-01-31.csv',
    );
    // Nothing nameable in it: left out, not a stray dash.
    expect(exportFileName({ organisation: '&&', ...range }, 'csv')).toBe('batches-2025-01-01-to-2025-01-31.csv');
    const long = exportFileName({ organisation: 'o'.repeat(300), ...range, crop: 'c'.repeat(300) }, 'api-csv');
    expect(long.length).toBeLessThanOrEqual(130);
  });

  it('are sent in Content-Disposition as ASCII, with the UTF-8 name beside where there is more than ASCII', () => {
    expect(attachmentHeader('Edge-cases-batches-all-time.xlsx')).toBe(
      'attachment; filename="Edge-cases-batches-all-time.xlsx"',
    );
    expect(attachmentHeader('Spécial-Co-batches-all-time.xlsx')).toBe(
      `attachment; filename="Special-Co-batches-all-time.xlsx"; filename*=UTF-8''Sp%C3%A9cial-Co-batches-all-time.xlsx`,
    );
    expect(attachmentHeader('青岛种业-batches-all-time.csv')).toBe(
      `attachment; filename="batches-all-time.csv"; filename*=UTF-8''${encodeURIComponent('青岛种业-batches-all-time.csv')}`,
    );
    // Every byte a header may carry.
    for (const name of ['Spécial-Co-batches-all-time.xlsx', '青岛种业-batches-all-time.csv'])
      expect(() => new Headers({ 'content-disposition': attachmentHeader(name) })).not.toThrow();
  });

  it('keep the incomplete and as-of markers before the ending', () => {
    const incomplete = { complete: false, loaded: 3, missing: [], zone: 'UTC' };
    expect(exportName(exportFileName({ ...range, crop: 'Basil' }, 'api-csv'), incomplete)).toBe(
      'batches-2025-01-01-to-2025-01-31-Basil-api-fields-INCOMPLETE.csv',
    );
    expect(exportName(exportFileName(range, 'xlsx'), incomplete)).toBe(
      'batches-2025-01-01-to-2025-01-31-INCOMPLETE.xlsx',
    );
  });
});
