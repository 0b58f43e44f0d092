'use client';

/** Runs each job in an idle moment of its own (a task each, so none holds the page); returns a cancel. */
export function eachWhenIdle(jobs: (() => unknown)[]): () => void {
  let cancelled = false;
  let handle: number | undefined;
  const idle =
    typeof requestIdleCallback === 'function' ? requestIdleCallback : (f: () => void) => window.setTimeout(f, 50);
  const stop = typeof cancelIdleCallback === 'function' ? cancelIdleCallback : window.clearTimeout;
  const next = (i: number) => {
    if (cancelled || i >= jobs.length) return;
    handle = idle(() => {
      jobs[i]!();
      next(i + 1);
    });
  };
  next(0);
  return () => {
    cancelled = true;
    if (handle !== undefined) stop(handle);
  };
}
