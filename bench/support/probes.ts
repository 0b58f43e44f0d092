import type { Page } from '@playwright/test';

/** Long tasks from the first script on, and a probe that times input → DOM change → next frame. */
export async function installProbes(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[]; __longTaskStarts: number[] };
    w.__longTasks = [];
    w.__longTaskStarts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        w.__longTasks.push(entry.duration);
        w.__longTaskStarts.push(entry.startTime);
      }
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.addInitScript(ARM_PROBE);
}

/**
 * Arms a probe (plain JS, as tsx would otherwise add helpers the page does not have): it starts at the next
 * input or click event and ends at the frame after `selector` changes (NaN if nothing changed in 5 s).
 */
const ARM_PROBE = `window.__arm = (selector) => {
  const target = document.querySelector(selector);
  let start = 0;
  const startOn = (e) => { if (!start) start = e.timeStamp; };
  document.addEventListener('input', startOn, { capture: true, once: true });
  document.addEventListener('click', startOn, { capture: true, once: true });
  window.__done = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!start) return; // a change from before the event (a load finishing), not the event's
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - start));
    });
    observer.observe(target, { subtree: true, childList: true, characterData: true, attributes: true });
    setTimeout(() => { observer.disconnect(); resolve(NaN); }, 5000);
  });
};`;

/** Times one interaction: from the event `act` fires until the watched element changed and painted. */
export async function timed(page: Page, watch: string, act: () => Promise<void>): Promise<number> {
  await page.evaluate(`window.__arm(${JSON.stringify(watch)})`);
  await act();
  return (await page.evaluate('window.__done')) as number;
}

/** The long tasks (ms) the page has seen so far; `from`: only those after this many. */
export async function longTasks(page: Page, from = 0): Promise<number[]> {
  return page.evaluate((n) => (window as unknown as { __longTasks: number[] }).__longTasks.slice(n), from);
}
