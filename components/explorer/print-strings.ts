/**
 * The printed report's words, in one place until the message catalogue arrives (then: messages/<locale>/print.json).
 * Written as ICU messages so they move there unchanged; `fill` puts the values in meanwhile.
 */
export const PRINT_STRINGS = {
  button: 'Print report',
  preparing: 'Preparing the report…',
  title: 'Batch report',
  organisation: 'Organisation',
  range: 'Range',
  allTime: 'All time',
  upToNow: 'up to now',
  zone: 'Time zone',
  made: 'Made',
  filters: 'Filters',
  noFilters: 'None: every batch of the range',
  search: 'Search “{text}”',
  crop: 'Crop: {crop}',
  warningsOnly: 'Warnings only',
  belowOnly: 'Below target only',
  hiddenColumns: 'Columns not shown: {columns}',
  sortedBy: 'Sorted by {column} ({dir})',
  ascending: 'ascending',
  descending: 'descending',
  metric: 'Charts show',
  grouping: 'Grouped by',
  targets: 'Targets',
  targetsUnsaved: '(not saved for the organisation: this view’s own)',
  general: 'General',
  targetPair: 'germination {germination}, usable seedlings {usable}, CV threshold {cv}',
  none: 'none',
  comparison: 'Compared with',
  batches: 'Batches',
  batchesCount: '{shown} batches in this view, {printed} printed',
  more: '{count} more batches are not printed: use Export to get all of them.',
  chartsNotDrawn: 'The charts had not been drawn when printing began: use Print report to include them.',
  footer: 'Tray-scan batch report · {organisation} · made {made}',
} as const;

export type PrintStrings = typeof PRINT_STRINGS;

/** `{name}` replaced by its value. */
export function fill(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
