'use client';

import { useEffect, useState } from 'react';
import { usePrinting } from '../print/printing';

/**
 * `value`, caught up with only after the browser has painted the current change: the heavy views below the
 * charts (control charts, uniformity) then never lengthen the frame that shows a click's result. A print takes
 * `value` as it is: the report shows the view of the moment.
 */
export function useAfterPaint<T>(value: T): T {
  const [shown, setShown] = useState(value);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShown(value), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [value]);
  return usePrinting() ? value : shown;
}
