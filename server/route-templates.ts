import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What of Next's routes manifest (`.next/routes-manifest.json`) says which route serves a path. */
type Manifest = { staticRoutes: { page: string; regex: string }[]; dynamicRoutes: { page: string; regex: string }[] };

/** Next's own pages that no path names (its error and not-found pages). */
const INTERNAL = /^\/_(global-error|not-found|error)$/;

/** Paths Next serves without a page of ours: its build's files, by prefix. */
const PREFIXES: [string, string][] = [
  ['/_next/static/', '/_next/static/[...path]'],
  ['/_next/image', '/_next/image'],
];

/**
 * The route template serving a path, as the build's manifest names it (`/api/settings/views/[id]`): a label
 * for metrics and traces that never holds an id. Undefined when no route matches (a 404), so that paths
 * made up by a scanner do not each become a series.
 */
export function routeMatcher(manifest: Manifest, own: string[] = []): (pathname: string) => string | undefined {
  const routes = [...manifest.staticRoutes, ...manifest.dynamicRoutes]
    .filter((r) => !INTERNAL.test(r.page))
    .map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  const exact = new Set(own);
  return (pathname) => {
    if (exact.has(pathname)) return pathname;
    const prefixed = PREFIXES.find(([prefix]) => pathname.startsWith(prefix));
    if (prefixed) return prefixed[1];
    return routes.find((r) => r.regex.test(pathname))?.page;
  };
}

/** The manifest of the build in `dir` (`next build` writes it). */
export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, '.next', 'routes-manifest.json'), 'utf8')) as Manifest;
}
