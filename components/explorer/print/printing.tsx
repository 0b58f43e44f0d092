'use client';

import { createContext, useContext } from 'react';

/**
 * True while a report is being printed (Print report, or the browser's own print with Ctrl+P): lazy parts draw
 * at once, charts take the print width, the print-only table is mounted.
 */
export const PrintingContext = createContext(false);
export const usePrinting = () => useContext(PrintingContext);

/**
 * The width charts are drawn at on paper (px): one chart across a portrait A4 or Letter page within the report's
 * margins (print.css) and a chart's frame. Fixed, since no resize is observed between `beforeprint` and the print.
 */
export const PRINT_WIDTH = 660;

/** Marks a part not drawn yet: Print report waits until none is left (use-print-report.ts). */
export const PENDING = { 'data-print-pending': '' } as const;
