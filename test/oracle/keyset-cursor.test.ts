/**
 * The job and upload lists' page cursors (oracle/src/domain/keyset-cursor.ts): the form clients
 * already hold (base64url of `<prefix><created_at>|<id>`), one list's cursor refused by the other,
 * and positions PostgreSQL would not take refused.
 */
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { jobCursor } from '../../oracle/src/domain/job-list.ts';
import { uploadCursor } from '../../oracle/src/domain/upload-list.ts';

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

describe('oracle: keyset page cursors', () => {
  const position = { createdAt: '2026-11-23T13:07:37.123456Z', id: randomUUID() };

  it('keeps the form issued before: the job list unprefixed, the upload list under uploads:', () => {
    assert.equal(jobCursor.encode(position), base64url(`${position.createdAt}|${position.id}`));
    assert.equal(uploadCursor.encode(position), base64url(`uploads:${position.createdAt}|${position.id}`));
    assert.deepEqual(jobCursor.decode(jobCursor.encode(position)), position);
    assert.deepEqual(uploadCursor.decode(uploadCursor.encode(position)), position);
  });

  it("refuses the other list's cursors and anything it did not issue", () => {
    assert.equal(jobCursor.decode(uploadCursor.encode(position)), null);
    assert.equal(uploadCursor.decode(jobCursor.encode(position)), null);
    for (const text of [
      `2026-02-31T00:00:00.000000Z|${position.id}`,
      `2026-11-23T24:00:00.000000Z|${position.id}`,
      `0000-01-01T00:00:00.000000Z|${position.id}`,
      `2026-11-23T13:07:37.123Z|${position.id}`,
      `${position.createdAt}|not-a-uuid`,
      `${position.createdAt}|${position.id}|extra`,
    ]) {
      assert.equal(jobCursor.decode(base64url(text)), null, text);
      assert.equal(uploadCursor.decode(base64url(`uploads:${text}`)), null, text);
    }
    for (const cursor of ['', 'not base64url!', 'a'.repeat(201)]) assert.equal(jobCursor.decode(cursor), null);
  });
});
