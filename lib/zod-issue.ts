import type { core } from 'zod';

/** `data[3].avg_germination_rate`: the path of a zod issue as a reader would write it. */
function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)),
    '',
  );
}

/**
 * The first problem zod found, with the field it concerns: the path, else the unknown key, else `fallback`.
 * Every `field: message` detail of the project (client, BFF, sandbox) is built from this.
 */
export function firstIssue(
  error: core.$ZodError,
  fallback: string,
): { field: string; message: string; unknownKey: boolean } {
  const issue = error.issues[0]!;
  const keys = (issue as { keys?: string[] }).keys;
  // An unknown key is named with its place (`targets.general.extra`), not by the object that holds it.
  const field = formatPath(keys?.[0] === undefined ? issue.path : [...issue.path, keys[0]]) || fallback;
  // A record key the key schema refused: zod's own message is "Invalid key in record", the key schema's says why.
  const inner = issue.code === 'invalid_key' ? issue.issues[0] : undefined;
  return { field, message: inner?.message ?? issue.message, unknownKey: issue.code === 'unrecognized_keys' };
}
