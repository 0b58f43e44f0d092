import enExport from '@/messages/en/export.json';

/**
 * The export's words (the table's column names, the menu, the view sheet's labels, Yes/No) in one language:
 * the `export` namespace of the message catalogue (messages/<language>/export.json). The exports are made
 * in the reader's language; English where there is no reader (a script calling the API without a language).
 */
export type ExportWords = typeof enExport;
export type ColumnId = keyof ExportWords['columns'];
export const ENGLISH_WORDS: ExportWords = enExport;
