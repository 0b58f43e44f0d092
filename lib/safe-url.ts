/** Only http(s) URLs become links: `javascript:`, `data:` and relative links are shown (and exported) as text. */
export function safeHttpUrl(link: string | null): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
