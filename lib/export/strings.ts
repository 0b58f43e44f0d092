// Types only: the catalogue itself reaches the browser through the page's provider (importing the JSON here put
// the English explorer messages into /batches' first JavaScript).
type EnExplorer = typeof import('@/messages/en/explorer.json');
type EnExport = typeof import('@/messages/en/export.json');

/**
 * The export's words in one language: the `export` namespace of the message catalogue (the menu, the view
 * sheet's labels, Yes/No) and the table's own column names (`explorer.columns`) and target words, so a file's
 * headers and verdicts are the table's. The exports are made in the reader's language; English where there is no reader (a script calling
 * the API without a language).
 */
export type ExportWords = EnExport & {
  columns: EnExplorer['columns'];
  /** The Off target column's words for each kind of target, and the Below target filter's for each choice. */
  targetKinds: EnExplorer['targetKinds'];
  belowKinds: EnExplorer['filters']['belowKinds'];
};
export type ColumnId = keyof ExportWords['columns'];

/** The export's words out of one language's catalogue. */
export const exportWords = (messages: { export: EnExport; explorer: EnExplorer }): ExportWords => ({
  ...messages.export,
  columns: messages.explorer.columns,
  targetKinds: messages.explorer.targetKinds,
  belowKinds: messages.explorer.filters.belowKinds,
});
