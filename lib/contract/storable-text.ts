/**
 * Text the settings store can keep exactly as it was sent. PostgreSQL's `text` and `jsonb` refuse U+0000
 * (`invalid byte sequence for encoding "UTF8": 0x00`), and a lone UTF-16 surrogate is no Unicode at all
 * (jsonb refuses its escape; a text column would keep U+FFFD instead). Names are one-line labels besides:
 * no control characters (C0, DEL, C1), which no keyboard types and which read as nothing or break a line.
 * Shared by the server's schemas and the browser's checks, so the page never builds what the server refuses.
 */

/** `U+001B`: how a character that cannot be shown is named in a sentence. */
export const codePointName = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);

/**
 * Why `text` cannot be stored, or null. Control characters are refused too unless `controls` allows them
 * (credentials: the service's alphabet is its own); a name or a query string from an address bar has none.
 */
export function storableTextProblem(text: string, { controls = false } = {}): string | null {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0) return 'must not contain the NUL character (U+0000)';
    if (code >= 0xd800 && code <= 0xdfff) {
      const paired = code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      if (!paired) return `must be valid Unicode: it holds a lone surrogate (${codePointName(code)})`;
      i++;
    } else if (!controls && isControl(code)) {
      return `must not contain control characters such as tabs or line breaks (it holds ${codePointName(code)})`;
    }
  }
  return null;
}

/** `text` with control characters and lone surrogates written as `\u0000`: safe to echo in a sentence or a log. */
export function printable(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
