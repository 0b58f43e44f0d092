/** Where to go after sign-in: only a path of this site (no scheme, host, `//` or backslash tricks). */
export function safeNextPath(next: string | undefined | null, fallback = '/batches'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return fallback;
  try {
    const url = new URL(next, 'http://same.invalid');
    return url.origin === 'http://same.invalid' ? url.pathname + url.search + url.hash : fallback;
  } catch {
    return fallback;
  }
}
