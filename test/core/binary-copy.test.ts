/**
 * Rows read in PostgreSQL's binary COPY format (core/src/db/binary-copy.ts) from a real server:
 * what PostgreSQL writes is the independent artifact, and node-postgres's own text path reads the
 * same rows for comparison. The landmark lookup reads its postings this way
 * (core/src/fingerprint/landmark-registry.ts; its tests in job-state.test.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { BinaryCopyFormatError, BinaryCopyTooLargeError, binaryCopyRows, readBinaryCopy } from '../../core/src/db/binary-copy.ts';
import type { BinaryCopyRow } from '../../core/src/db/binary-copy.ts';
import { closeDatabase, createDatabase, QUERY_READ_TIMEOUT_MESSAGE } from '../../core/src/db/database.ts';
import type { Database } from '../../core/src/db/database.ts';
import { startTestPostgres } from '../../core/src/testing/postgres.ts';
import type { TestPostgres } from '../../core/src/testing/postgres.ts';

/** Every row of a whole stream. */
const parsed = (data: Buffer): BinaryCopyRow[] => [...binaryCopyRows(data)];

describe('core: binary COPY rows from a real PostgreSQL', () => {
  let pgServer: TestPostgres;
  let db: Database;
  const large = randomBytes(3 * 1024 * 1024);

  before(async () => {
    pgServer = await startTestPostgres();
    db = createDatabase(pgServer.url);
    await db.none('CREATE TABLE copy_rows (id int4 PRIMARY KEY, label text, data bytea)');
    await db.none('INSERT INTO copy_rows VALUES (1, $1, $2), (2, NULL, $3), (3, $4, NULL), (4, $5, $6)', [
      'première',
      Buffer.alloc(0),
      Buffer.from([0, 255, 10, 13, 92, 120]),
      '',
      'large',
      large,
    ]);
  });

  after(async () => {
    await closeDatabase(db);
    await pgServer.stop();
  });

  /** Room for any stream these tests read. */
  const ROOM = 64 * 1024 * 1024;

  const copyOf = async (text: string): Promise<Buffer> => {
    const connection = await db.connect();
    try {
      return await readBinaryCopy(connection.client, text, ROOM);
    } finally {
      connection.done();
    }
  };

  it('reads every row and field as the text path reads them: NULLs, empty values, a value of megabytes', async () => {
    const data = await copyOf('COPY (SELECT id, label, data FROM copy_rows ORDER BY id) TO STDOUT (FORMAT binary)');
    assert.ok(data.length > large.length, 'the large value came whole, over many socket reads');
    const rows = parsed(data);
    const text = await db.any<{ id: number; label: string | null; data: Buffer | null }>(
      'SELECT id, label, data FROM copy_rows ORDER BY id',
    );
    assert.equal(rows.length, text.length);
    rows.forEach(([id, label, bytes], i) => {
      const expected = text[i];
      assert.equal(id?.readInt32BE(0), expected?.id);
      assert.equal(label === null ? null : label?.toString('utf8'), expected?.label);
      assert.equal(bytes === null ? null : Buffer.compare(bytes as Buffer, expected?.data as Buffer), expected?.data === null ? null : 0);
    });
    assert.equal(rows[3]?.[2]?.length, large.length);
  });

  it('keeps every row whole when messages straddle socket reads: thousands of rows of uneven lengths', async () => {
    await db.none(
      `CREATE TABLE copy_many AS SELECT i AS id, decode(repeat(md5(i::text), 1 + (i * 7919) % 90), 'hex') AS data FROM generate_series(1, 6000) AS i`,
    );
    const rows = parsed(await copyOf('COPY (SELECT id, data FROM copy_many ORDER BY id) TO STDOUT (FORMAT binary)'));
    const text = await db.any<{ id: number; data: Buffer }>('SELECT id, data FROM copy_many ORDER BY id');
    assert.equal(rows.length, 6000);
    const differing = rows.filter(([id, data], i) => id?.readInt32BE(0) !== text[i]?.id || !data?.equals(text[i]?.data as Buffer));
    assert.equal(differing.length, 0);
  });

  it('rejects with the server error, and the connection answers the next statement', async () => {
    const connection = await db.connect();
    try {
      await assert.rejects(
        readBinaryCopy(connection.client, 'COPY (SELECT * FROM no_such_table) TO STDOUT (FORMAT binary)', ROOM),
        (error: { code?: string }) => {
          assert.equal(error.code, '42P01');
          return true;
        },
      );
      await assert.rejects(readBinaryCopy(connection.client, 'SELECT 1', ROOM), BinaryCopyFormatError);
      assert.equal((await connection.one<{ n: number }>('SELECT 41 + 1 AS n')).n, 42);
      const rows = parsed(await readBinaryCopy(connection.client, 'COPY (SELECT 7::int4) TO STDOUT (FORMAT binary)', ROOM));
      assert.equal(rows[0]?.[0]?.readInt32BE(0), 7);
    } finally {
      connection.done();
    }
  });

  it('refuses a stream past the bytes allowed as it arrives, and the connection answers the next statement', async () => {
    const statement = 'COPY (SELECT id, data FROM copy_rows ORDER BY id) TO STDOUT (FORMAT binary)';
    const whole = await copyOf(statement);
    const connection = await db.connect();
    try {
      const exact = await readBinaryCopy(connection.client, statement, whole.length);
      assert.ok(exact.equals(whole), 'a stream of exactly the bytes allowed is read whole');
      await assert.rejects(readBinaryCopy(connection.client, statement, whole.length - 1), BinaryCopyTooLargeError);
      // Refused on the first message past a small allowance, the megabytes that follow are dropped.
      await assert.rejects(readBinaryCopy(connection.client, statement, 1024), /passed 1024 bytes/);
      assert.equal((await connection.one<{ n: number }>('SELECT 41 + 1 AS n')).n, 42);
      assert.throws(() => readBinaryCopy(connection.client, statement, -1), RangeError);
    } finally {
      connection.done();
    }
  });

  it("answers the client's read timeout while the server is still at work", async () => {
    const client = new pg.Client({ connectionString: pgServer.url, query_timeout: 200 });
    await client.connect();
    try {
      await assert.rejects(
        readBinaryCopy(client, 'COPY (SELECT pg_sleep(5)) TO STDOUT (FORMAT binary)', ROOM),
        new RegExp(QUERY_READ_TIMEOUT_MESSAGE),
      );
    } finally {
      // The statement is still in flight: the socket goes, as the product's pool drops such a connection.
      client.on('error', () => undefined);
      const ended = new Promise((resolve) => client.once('end', resolve));
      client.connection.stream.destroy();
      await ended;
    }
  });

  it('refuses a stream that is not whole: every cut of a real one, a wrong signature, bytes after the trailer', async () => {
    const data = await copyOf('COPY (SELECT id, label, data FROM copy_rows WHERE id < 4 ORDER BY id) TO STDOUT (FORMAT binary)');
    assert.equal(parsed(data).length, 3);
    for (let cut = 0; cut < data.length; cut += 1)
      assert.throws(() => parsed(data.subarray(0, cut)), BinaryCopyFormatError, `cut at ${cut}`);
    const wrong = Buffer.from(data);
    wrong[0] = 0x51;
    assert.throws(() => parsed(wrong), /signature/);
    assert.throws(() => parsed(Buffer.concat([data, Buffer.from([0])])), /after the binary COPY trailer/);
  });
});
