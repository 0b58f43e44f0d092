'use client';

import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { PENDING } from '../print/printing';

/**
 * A component whose code loads on first use, like next/dynamic, but rendered in the same pass once its code is
 * here (React.lazy suspends on its first render whatever the module's state). The browser's own print (Ctrl+P)
 * renders the report synchronously in `beforeprint`: with the code preloaded (`preload`, in an idle moment) the
 * charts are in it. Until the code arrives: `fallback`, marked as not drawn for Print report to wait on.
 */
export function lazyPart<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  fallback: ReactNode = null,
) {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => (loading ??= load().then((m) => (loaded = m.default)));
  function LazyPart(props: P) {
    const [Part, setPart] = useState<ComponentType<P> | null>(() => loaded);
    useEffect(() => {
      if (Part) return;
      let live = true;
      void preload().then((c) => live && setPart(() => c));
      return () => {
        live = false;
      };
    }, [Part]);
    return Part ? <Part {...props} /> : <div {...PENDING}>{fallback}</div>;
  }
  return Object.assign(LazyPart, { preload });
}

/** lazyPart of a module's named component: `lazyNamed(() => import('./x').then((m) => m.X))`. */
export function lazyNamed<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazyPart<P>(() => load().then((component) => ({ default: component })));
}
