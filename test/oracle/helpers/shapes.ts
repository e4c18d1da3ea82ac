import assert from 'node:assert/strict';
import type { z } from 'zod';
import { dailyLimitErrorSchema, variantAErrorSchema, variantCErrorSchema } from '../../../oracle/src/http/schemas.ts';

/** Parses `body` with the app's own (strict) response schema, failing with the body in the message. */
function parseWith<T extends z.ZodType>(schema: T, body: unknown, what: string): z.infer<T> {
  const parsed = schema.safeParse(body);
  assert.ok(parsed.success, `expected ${what}, got ${JSON.stringify(body)}: ${parsed.error?.message ?? ''}`);
  return parsed.data;
}

/** Asserts the spec's Variant A error body `{error:{code,message,details,retry_after?,job_id?}}`. */
export function assertVariantAError(body: unknown, code?: string): void {
  const { error } = parseWith(variantAErrorSchema, body, 'a Variant A error body');
  assert.ok(error.message.length > 0);
  if (code !== undefined) assert.equal(error.code, code);
}

/** Asserts the spec's Variant C error body `{error, message, details: object}`. */
export function assertVariantCError(body: unknown, code?: string): void {
  const parsed = parseWith(variantCErrorSchema, body, 'a Variant C error body');
  if (code !== undefined) assert.equal(parsed.error, code);
}

/** Asserts the spec's daily-limit 429 body. */
export function assertDailyLimitBody(body: unknown, limit: number): void {
  const parsed = parseWith(dailyLimitErrorSchema, body, 'the daily-limit body');
  assert.equal(parsed.limit, limit);
  const reset = new Date(parsed.reset_at);
  assert.equal(reset.getUTCHours(), 0);
  assert.equal(reset.getUTCMinutes(), 0);
  assert.ok(reset.getTime() > Date.now());
}
