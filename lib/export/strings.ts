/**
 * The export's words in one place (the table's column names, units, the view sheet's labels, Yes/No), so that
 * they move into the message catalogue in one piece.
 */
export const EXPORT_STRINGS = {
  menu: { button: 'Export', xlsx: 'Excel (.xlsx)', csv: 'CSV', apiCsv: 'CSV (API fields)' },
  columns: {
    date: 'Created', name: 'Batch', crop: 'Crop', germination: 'Germination', target: 'Target', usable: 'Usable',
    cells: 'Cells/tray', cv: 'Size CV', size: 'Median size', images: 'Images', warnings: 'Warnings',
    germinated: 'Germinated/tray', scanner: 'Scanned by', analysis: 'Analysis', comment: 'Comment',
  },
  yes: 'Yes',
  no: 'No',
  sheets: { data: 'Batches', view: 'View' },
  view: {
    range: 'Range', zone: 'Time zone', search: 'Search', crop: 'Crop', warningsOnly: 'Warnings only', belowTarget: 'Below target',
    drill: 'Drill-downs', sort: 'Sorted by', targets: 'Targets', grouping: 'Grouping', columns: 'Columns', batches: 'Batches',
    made: 'Made', complete: 'Data complete', none: 'none', allTime: 'All time', now: 'now',
    ascending: 'ascending', descending: 'descending', general: 'General',
  },
  incomplete: 'INCOMPLETE',
} as const;

export type ColumnId = keyof typeof EXPORT_STRINGS.columns;
