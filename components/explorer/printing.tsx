'use client';

import { cloneElement, createContext, useContext, type ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';

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

/**
 * A recharts chart the width of its box on screen, and PRINT_WIDTH on paper: a ResponsiveContainer measures
 * after layout, which a print does not wait for.
 */
export function FitWidth({ height, children }: { height: number; children: ReactElement<{ width?: number; height?: number }> }) {
  const printing = usePrinting();
  if (printing) return cloneElement(children, { width: PRINT_WIDTH, height });
  return (
    <ResponsiveContainer width="100%" height={height}>
      {children}
    </ResponsiveContainer>
  );
}
