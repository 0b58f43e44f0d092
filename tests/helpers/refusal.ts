import { expect } from 'vitest';
import { AppError } from '@/lib/server/http/app-error';

/** The AppError `promise` rejects with (the test fails when it resolves, or rejects with anything else). */
export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
