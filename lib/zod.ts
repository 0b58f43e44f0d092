import { config } from 'zod/mini';

/**
 * zod for every module the browser loads (lib/contract, lib/explorer), as `import * as z from '../zod'`: zod's
 * "mini" form (functions rather than methods), and only the functions our schemas use, named one by one so the
 * bundler leaves the rest of zod out. zod's classic form cannot be tree-shaken (every schema carries every
 * method, and its formats and locales come along) and was 91 kB of the page's 290 kB of gzipped JavaScript.
 * Server-only modules keep the classic form; both build on the same core, so a classic object can hold a schema
 * from here.
 */
export {
  _default,
  array,
  boolean,
  catch,
  coerce,
  custom,
  enum,
  int,
  iso,
  literal,
  maxLength,
  maximum,
  minLength,
  minimum,
  NEVER,
  nonnegative,
  nullable,
  number,
  object,
  optional,
  overwrite,
  pipe,
  positive,
  record,
  refine,
  regex,
  strictObject,
  string,
  superRefine,
  transform,
  trim,
  union,
} from 'zod/mini';
export type { core, infer, output, ZodMiniType } from 'zod/mini';

/*
 * Importing zod from here is also what guarantees the setting below is made before any schema exists. zod
 * decides at schema creation whether to compile object parsers with `new Function`, probing it once; under our
 * CSP (no 'unsafe-eval') the browser refuses the probe and reports a violation on every page load, although zod
 * catches the refusal. jitless skips the probe. The server keeps the compiled parsers: it checks every batch of
 * every upstream page.
 */
if (typeof window !== 'undefined') config({ jitless: true });
