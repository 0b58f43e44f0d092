/** Debian's Chromium (browsers cannot be downloaded here) and the flags STACK.md lists: for the tests and the benches. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export { CHROMIUM_ARGS } from '../lib/print/chromium-flags';
