import type { Page } from '@playwright/test';

export type PageMarks = {
  firstRow: number;
  done: number;
  doneText: string;
  stream?: { start: number; firstByte: number; end: number };
};

/**
 * Records, in the page's own clock (ms since navigation start), when the first table row appears and when
 * the status first reads a final count ("20,000 batches"), from a MutationObserver installed before any
 * script of the page runs.
 */
export async function installMarks(page: Page) {
  await page.addInitScript(() => {
    const marks: Record<string, number | string> = {};
    (window as unknown as { __benchMarks: typeof marks }).__benchMarks = marks;
    new MutationObserver(() => {
      if (marks.firstRow === undefined && document.querySelector('tbody tr[aria-rowindex]'))
        marks.firstRow = performance.now();
      if (marks.done === undefined) {
        const status = document.querySelector('[role=status]');
        const text = status?.textContent ?? '';
        if (/^[\d,]+ batch(es)?$/.test(text)) {
          marks.done = performance.now();
          marks.doneText = text;
        }
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

export async function readMarks(page: Page): Promise<PageMarks> {
  return page.evaluate(() => {
    const marks = (window as unknown as { __benchMarks: PageMarks }).__benchMarks;
    const entry = performance.getEntriesByType('resource').find((e) => e.name.includes('/api/batches/stream')) as
      PerformanceResourceTiming | undefined;
    if (entry) marks.stream = { start: entry.startTime, firstByte: entry.responseStart, end: entry.responseEnd };
    return marks;
  });
}
