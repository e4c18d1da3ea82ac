/**
 * The one result type of domain functions: a value, or an error with a code. Expected failures
 * (bad input, a missing row, a refused transition) are values; exceptions are left for faults.
 */

export interface DomainError<Code extends string = string> {
  code: Code;
  message: string;
  details?: string;
}

export type Result<T, E extends { code: string; message: string } = DomainError> = { ok: true; value: T } | { ok: false; error: E };

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

export function fail<E extends { code: string; message: string }>(error: E): { ok: false; error: E } {
  return { ok: false, error };
}
