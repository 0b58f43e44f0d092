/**
 * `org=<slug>`: the organisation a page is for. It is not view state (saved views never keep it, and it alone
 * leaves a page bare), but every call the page makes to our API carries it, so that the page and its data are
 * always the same organisation's.
 */
export const ORG_PARAM = 'org';

/** The organisation the current page names, or null (then the person's default organisation applies). */
export function pageOrg(search: string = typeof window === 'undefined' ? '' : window.location.search): string | null {
  return new URLSearchParams(search).get(ORG_PARAM) || null;
}

/** `path` with the page's `org=` added (as is when the page names none). */
export function withOrg(path: string, org: string | null = pageOrg()): string {
  if (!org) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${ORG_PARAM}=${encodeURIComponent(org)}`;
}

/** A query string without `org=` (byte for byte otherwise): what a saved view keeps of a page's address. */
export function withoutOrg(query: string): string {
  return query
    .split('&')
    .filter((part) => {
      const key = part.split('=')[0]!;
      try {
        return decodeURIComponent(key.replace(/\+/g, ' ')) !== ORG_PARAM;
      } catch {
        return true;
      }
    })
    .join('&');
}
