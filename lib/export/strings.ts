import enExplorer from '@/messages/en/explorer.json';
import enExport from '@/messages/en/export.json';

/**
 * The export's words in one language: the `export` namespace of the message catalogue (the menu, the view
 * sheet's labels, Yes/No) and the table's own column names (`explorer.columns`), so a file's headers are the
 * table's. The exports are made in the reader's language; English where there is no reader (a script calling
 * the API without a language).
 */
export type ExportWords = typeof enExport & { columns: typeof enExplorer.columns };
export type ColumnId = keyof ExportWords['columns'];

/** The export's words out of one language's catalogue. */
export const exportWords = (messages: { export: typeof enExport; explorer: typeof enExplorer }): ExportWords => ({
  ...messages.export,
  columns: messages.explorer.columns,
});

export const ENGLISH_WORDS: ExportWords = exportWords({ export: enExport, explorer: enExplorer });
