'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';
import { PENDING, usePrinting } from '../print/printing';

/**
 * Renders `children` once the spot comes near the screen, and keeps them after that. The charts sit below
 * the table: on a phone or a short window nobody pays for drawing them until they scroll that far. A print
 * renders them wherever they are: the report holds every chart.
 */
export function WhenVisible({ children, placeholder }: { children: ReactNode; placeholder: ReactNode }) {
  const spot = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(false);
  const printing = usePrinting();
  useEffect(() => {
    const element = spot.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen]);
  return <div ref={spot}>{seen || printing ? children : <div {...PENDING}>{placeholder}</div>}</div>;
}
