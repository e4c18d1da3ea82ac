/**
 * Rows read in PostgreSQL's binary COPY format (`COPY (SELECT …) TO STDOUT (FORMAT binary)`), as
 * the server sends them: the one way node-postgres hands a client bytes it has not decoded.
 * Its own queries decode every value as text (pg-protocol reads each field of a data row as a
 * UTF-8 string, whatever format the query asked for), so a `bytea` comes as hex, twice its size,
 * and is decoded again. A landmark lookup among a million sounds reads about a megabyte of
 * postings; the text path took half of the statement's time at the client (docs/fingerprints.md,
 * "Reading the postings in binary").
 *
 * `readBinaryCopy` runs the statement on one client as a node-postgres `Submittable` (the
 * extension point pg-cursor and pg-query-stream use): the client's own parser splits the stream
 * into messages and hands each CopyData message's bytes here. `binaryCopyRows` reads the format
 * (PostgreSQL documentation, "COPY", "Binary Format"): an 11-byte signature, flags, a header
 * extension, then per row a field count and each field's length (-1: NULL) and bytes, ended by a
 * field count of -1.
 *
 * The caller states the most bytes the statement can return (its rows' bound): a stream past it
 * is refused as it arrives, and the rest of it is read and dropped, so a row the database should
 * not hold (a damaged table, a statement that reads more than meant) never costs more memory than
 * the lookup was sized for.
 */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Bit 16 of the flags: OIDs included (never asked for here). */
const FLAG_OIDS = 1 << 16;

export class BinaryCopyFormatError extends Error {
  override readonly name = 'BinaryCopyFormatError';
}

/** The stream passed the bytes its reader allowed. */
export class BinaryCopyTooLargeError extends Error {
  override readonly name = 'BinaryCopyTooLargeError';
}

/** The fields of one row: each value's bytes (a view into the copy's buffer), null for NULL. */
export type BinaryCopyRow = (Buffer | null)[];

/**
 * The rows of a whole binary COPY stream, one at a time, so that a long stream can be read in
 * slices of the event loop; throws `BinaryCopyFormatError` where it is not one, at the row where
 * it stops being one (at the first for a wrong signature, after the last for a missing trailer).
 */
export function* binaryCopyRows(data: Buffer): Generator<BinaryCopyRow, void, undefined> {
  if (data.length < SIGNATURE.length + 8 || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE))
    throw new BinaryCopyFormatError('not a binary COPY stream (signature)');
  let at = SIGNATURE.length;
  const flags = data.readUInt32BE(at);
  if ((flags & FLAG_OIDS) !== 0) throw new BinaryCopyFormatError('binary COPY with OIDs');
  const extension = data.readUInt32BE(at + 4);
  at += 8 + extension;
  for (;;) {
    if (at + 2 > data.length) throw new BinaryCopyFormatError('binary COPY stream ends without its trailer');
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) break;
    if (fields < 0) throw new BinaryCopyFormatError(`binary COPY row of ${fields} fields`);
    const row: BinaryCopyRow = [];
    for (let i = 0; i < fields; i += 1) {
      if (at + 4 > data.length) throw new BinaryCopyFormatError('binary COPY row cut short');
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) {
        row.push(null);
        continue;
      }
      if (length < 0 || at + length > data.length) throw new BinaryCopyFormatError('binary COPY field cut short');
      row.push(data.subarray(at, at + length));
      at += length;
    }
    yield row;
  }
  if (at !== data.length) throw new BinaryCopyFormatError('bytes after the binary COPY trailer');
}

type Callback = (error: Error | null, data?: Buffer) => void;

/** A node-postgres client (pg-promise's `connect()` hands one out as `client`). */
export interface CopyClient {
  query(query: BinaryCopyOut): unknown;
}

/**
 * One simple-protocol `COPY … TO STDOUT (FORMAT binary)` as node-postgres runs a query object:
 * `submit` sends it, the client calls the `handle…` methods with the server's messages. The
 * client wraps `callback` for its read timeout (`query_timeout`), so it is read at each call.
 */
export class BinaryCopyOut {
  callback: Callback;
  private data = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  private error: Error | null = null;
  private settled = false;

  constructor(
    private readonly text: string,
    private readonly maxBytes: number,
    callback: Callback,
  ) {
    this.callback = callback;
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  /** A row's bytes: a view into the parser's buffer, which it reuses, so they are copied now. */
  handleCopyData(message: { chunk: Buffer }): void {
    const chunk = message.chunk;
    if (this.error !== null) return;
    if (this.length + chunk.length > this.maxBytes) {
      this.error = new BinaryCopyTooLargeError(`the binary COPY stream passed ${this.maxBytes} bytes`);
      this.data = Buffer.alloc(0);
      this.length = 0;
      return;
    }
    if (this.length + chunk.length > this.data.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.maxBytes, Math.max(this.data.length * 2, this.length + chunk.length)));
      this.data.copy(grown, 0, 0, this.length);
      this.data = grown;
    }
    chunk.copy(this.data, this.length);
    this.length += chunk.length;
  }

  handleCommandComplete(): void {}

  /** The statement returned rows instead of copying them out: not a COPY TO STDOUT. */
  handleRowDescription(): void {
    this.error ??= new BinaryCopyFormatError('the statement is not a COPY … TO STDOUT');
  }

  handleDataRow(): void {}

  handleEmptyQuery(): void {
    this.error ??= new BinaryCopyFormatError('empty statement');
  }

  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('a COPY FROM is not read here');
    this.error ??= new BinaryCopyFormatError('the statement is a COPY FROM');
  }

  /** A server error (a ReadyForQuery follows) or a lost connection (none follows): answered now. */
  handleError(error: Error): void {
    this.error ??= error;
    this.settle();
  }

  handleReadyForQuery(): void {
    this.settle();
  }

  private settle(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.error !== null) this.callback(this.error);
    else this.callback(null, this.data.subarray(0, this.length));
  }
}

/**
 * Runs `text` (a `COPY (…) TO STDOUT (FORMAT binary)`: the simple protocol, so no parameters:
 * the caller writes only values it made safe into it) on `client` and returns the stream's
 * bytes, at most `maxBytes` of them. Rejects with the server's error, the client's read
 * timeout, or `BinaryCopyTooLargeError` once the stream passes `maxBytes` (the connection is
 * left ready for its next statement).
 */
export function readBinaryCopy(client: CopyClient, text: string, maxBytes: number): Promise<Buffer> {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new RangeError(`maxBytes ${maxBytes} is not a byte count`);
  return new Promise((resolve, reject) => {
    // For a query object the client returns that object, not a promise: the callback answers.
    client.query(new BinaryCopyOut(text, maxBytes, (error, data) => (error !== null ? reject(error) : resolve(data as Buffer))));
  });
}
