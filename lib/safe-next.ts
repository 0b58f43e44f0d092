/** Where to go after sign-in: only a path of this site (no scheme, host, `//` or backslash tricks). */
export function safeNextPath(next: string | undefined | null, fallback = '/batches'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return fallback;
  try {
    const url = new URL(next, 'http://same.invalid');
    const path = url.pathname + url.search + url.hash;
    // Checked again after parsing: dot segments can turn `/.//evil.example` into `//evil.example`.
    if (url.origin !== 'http://same.invalid' || path.startsWith('//') || path.startsWith('/\\')) return fallback;
    return path;
  } catch {
    return fallback;
  }
}
