import { z } from 'zod';

/**
 * zod for every module the browser loads (lib/contract, lib/explorer): importing `z` from here is what
 * guarantees the setting below is made before any schema exists. zod decides at schema creation whether to
 * compile object parsers with `new Function`, probing it once; under our CSP (no 'unsafe-eval') the browser
 * refuses the probe and reports a violation on every page load, although zod catches the refusal. jitless
 * skips the probe. The server keeps the compiled parsers: it checks every batch of every upstream page.
 */
if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
