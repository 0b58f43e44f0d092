'use client';

import { cloneElement, type ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';
import { PRINT_WIDTH, usePrinting } from '../print/printing';

/**
 * A recharts chart (apart from printing.tsx, which the explorer's first chunk needs: recharts is for the lazy
 * charts only) the width of its box on screen, and PRINT_WIDTH on paper: a ResponsiveContainer measures
 * after layout, which a print does not wait for.
 */
export function FitWidth({
  height,
  onWidth,
  children,
}: {
  height: number;
  onWidth?: (width: number) => void;
  children: ReactElement<{ width?: number; height?: number }>;
}) {
  const printing = usePrinting();
  if (printing) return cloneElement(children, { width: PRINT_WIDTH, height });
  return (
    <ResponsiveContainer width="100%" height={height} onResize={onWidth && ((width) => onWidth(width))}>
      {children}
    </ResponsiveContainer>
  );
}
