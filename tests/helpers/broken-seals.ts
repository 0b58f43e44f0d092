import fc from 'fast-check';

/**
 * The session cookies of the report, made from a real seal (`Fe26.2*id*salt*iv*data*expiry*hmacSalt*hmac~2`):
 * each must be "no session" (401, the sign-in page), never an error, and sign-in and sign-out must work with it.
 */
export function reportedBrokenSeals(seal: string): [string, string][] {
  const parts = seal.slice(0, seal.indexOf('~')).split('*');
  const withPart = (i: number, value: string) => `${parts.map((p, j) => (j === i ? value : p)).join('*')}~2`;
  return [
    ['a corrupted prefix', seal.replace(/^Fe26\.2/, 'Fe26.x')],
    ['a non-numeric expiry', withPart(5, 'soon')],
    ['a negative expiry', withPart(5, `-${parts[5]}`)],
    ['password id __proto__', withPart(1, '__proto__')],
    ['password id constructor', withPart(1, 'constructor')],
    ['a quoted value', `"${seal}"`],
    ['seven stars', '*******'],
    ['characters after the version', `${seal}x`],
    ['a part after the seal', `${seal}*x`],
  ];
}

/** Characters a seal is written with; whitespace is left out, as cookie parsing trims it around a value (RFC 6265 5.2). */
const SEAL_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_*~.'];
const extra = fc.string({
  unit: fc.constantFrom(...SEAL_CHARS, '"', '=', ',', '%', '\\', '/'),
  minLength: 1,
  maxLength: 6,
});

/** A real seal with one thing done to it: a character changed, removed or inserted, cut short, or added to. */
export function mutatedSeal(seal: string): fc.Arbitrary<string> {
  const at = fc.nat(seal.length - 1);
  return fc.oneof(
    fc
      .tuple(at, fc.constantFrom(...SEAL_CHARS))
      .filter(([i, c]) => seal[i] !== c)
      .map(([i, c]) => seal.slice(0, i) + c + seal.slice(i + 1)),
    at.map((i) => seal.slice(0, i) + seal.slice(i + 1)),
    fc.tuple(fc.nat(seal.length), extra).map(([i, s]) => seal.slice(0, i) + s + seal.slice(i)),
    at.map((n) => seal.slice(0, n)),
    extra.map((s) => seal + s),
    extra.map((s) => s + seal),
  );
}

/** Every single-position change of a seal: each character replaced by the next one of the seal alphabet. */
export function everyPositionChanged(seal: string): string[] {
  return [...seal].map((c, i) => {
    const next = SEAL_CHARS[(SEAL_CHARS.indexOf(c) + 1) % SEAL_CHARS.length]!;
    return seal.slice(0, i) + next + seal.slice(i + 1);
  });
}
