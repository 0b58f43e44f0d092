'use client';

import type { ReactNode } from 'react';
import type { FieldProblem } from '@/lib/alerts/rule-draft';
import own from './alerts.module.css';

/** The id of a field's input and of the line that says what is wrong with it. */
export type FieldIds = {
  id: (field: string) => string;
  problem: (field: string) => FieldProblem | null;
  describe: (field: string, hint?: string) => Record<string, unknown>;
};

/** A labelled control, its hint below it, and what the server found wrong with it. */
export function Field({
  ids,
  field,
  label,
  hint,
  children,
}: {
  ids: FieldIds;
  field: string;
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className={own.field}>
      <label htmlFor={ids.id(field)}>{label}</label>
      {children}
      {hint && (
        <span id={`${ids.id(field)}-hint`} className={own.hint}>
          {hint}
        </span>
      )}
      <Problem ids={ids} field={field} />
    </div>
  );
}

/** The server's word on a field, beside it (the field's description too). */
export function Problem({ ids, field }: { ids: FieldIds; field: string }) {
  const problem = ids.problem(field);
  if (!problem) return null;
  return (
    <span id={`${ids.id(field)}-problem`} className={own.fieldProblem}>
      {problem.message}
    </span>
  );
}
