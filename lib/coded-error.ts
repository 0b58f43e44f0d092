/**
 * An error with a code a caller can act on and, where known, the field it concerns, taken from structured
 * data (a zod path, a service's `loc`) rather than read out of the message, and the wait to suggest before
 * trying again, as a number. The upstream client's errors and our own (lib/server/http/app-error.ts) are both this.
 */
export type CodedErrorOptions = {
  /** The field the failure concerns, from structured data (a zod path, a `loc`), never read out of a sentence. */
  field?: string;
  /** How long to wait before trying again, in whole seconds. */
  retryAfterS?: number;
  cause?: unknown;
};

export class CodedError<Code extends string> extends Error {
  readonly field: string | undefined;
  readonly retryAfterS: number | undefined;

  constructor(
    readonly code: Code,
    message: string,
    options: CodedErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.field = options.field;
    this.retryAfterS = options.retryAfterS;
  }
}
