import assert from 'node:assert/strict';

/** Asserts the spec's Variant A error body `{error:{code,message,details,retry_after?,job_id?}}`. */
export function assertVariantAError(body: unknown, code?: string): void {
  assert.equal(typeof body, 'object');
  const error = (body as { error?: unknown }).error;
  assert.equal(typeof error, 'object', `expected a Variant A error body, got ${JSON.stringify(body)}`);
  const e = error as Record<string, unknown>;
  assert.equal(typeof e.code, 'string');
  assert.equal(typeof e.message, 'string');
  assert.ok((e.message as string).length > 0);
  assert.equal(typeof e.details, 'string');
  if ('retry_after' in e) assert.ok(Number.isInteger(e.retry_after));
  if ('job_id' in e) assert.equal(typeof e.job_id, 'string');
  for (const key of Object.keys(e)) assert.ok(['code', 'message', 'details', 'retry_after', 'job_id'].includes(key), `unexpected field ${key}`);
  if (code !== undefined) assert.equal(e.code, code);
}

/** Asserts the spec's Variant C error body `{error, message, details: object}`. */
export function assertVariantCError(body: unknown, code?: string): void {
  const b = body as Record<string, unknown>;
  assert.equal(typeof b.error, 'string', `expected a Variant C error body, got ${JSON.stringify(body)}`);
  assert.equal(typeof b.message, 'string');
  assert.ok(typeof b.details === 'object' && b.details !== null && !Array.isArray(b.details));
  if (code !== undefined) assert.equal(b.error, code);
}

/** Asserts the spec's daily-limit 429 body. */
export function assertDailyLimitBody(body: unknown, limit: number): void {
  const b = body as Record<string, unknown>;
  assert.equal(b.error, 'rate_limit_exceeded');
  assert.equal(b.limit, limit);
  assert.equal(typeof b.reset_at, 'string');
  const reset = new Date(String(b.reset_at));
  assert.equal(reset.getUTCHours(), 0);
  assert.equal(reset.getUTCMinutes(), 0);
  assert.ok(reset.getTime() > Date.now());
}
