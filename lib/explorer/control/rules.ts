/**
 * The rules a control chart judges batches by (`rules=` in the URL): `limits`, a batch beyond the limits only;
 * `runs`, also a run of RUN batches or more on one side of the centre. Kept apart so the URL reader stays small.
 */
export const RULES = ['limits', 'runs'] as const;
export type Rules = (typeof RULES)[number];
/** A run this long on one side of the centre breaks the run rule. */
export const RUN = 8;
