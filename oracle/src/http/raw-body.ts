/**
 * A raw request body (an upload: the file itself), read with a byte limit and a minimum rate
 * (docs/api.md "Upload audio"). Unlike body-parser, which reads off the whole rest of a body it
 * refuses before it answers, a refusal here answers at once and closes the connection: a
 * `Content-Length` over the limit is refused unread (413), and so is a body once it passes it.
 *
 * The rate: after `graceSeconds`, at least `bytesPerSecond` must have arrived for every second
 * since, so that by `t` seconds `(t - graceSeconds) × bytesPerSecond` bytes are in, and a body of
 * `n` bytes has `graceSeconds + n / bytesPerSecond` seconds in all. A body that falls behind is cut
 * off: 408 BODY_TOO_SLOW (./error-handler.ts), and what it held (an upload's slot) given back.
 * Without it a client sending a byte a minute held a slot until Node's 300 s request timeout
 * (issue 49).
 */
import type { Request, Response } from 'express';

export interface BodyRate {
  bytesPerSecond: number;
  graceSeconds: number;
}

export interface RawBodyRule {
  /** Bytes. */
  limit: number;
  minRate?: BodyRate | undefined;
}

/** How often the rate is checked. */
const CHECK_MS = 250;

/** A body that fell behind its minimum rate (./error-handler.ts answers it 408 BODY_TOO_SLOW). */
export class BodyTooSlowError extends Error {
  constructor(
    readonly received: number,
    readonly expected: number,
    readonly seconds: number,
    readonly rate: BodyRate,
  ) {
    super(`${received} bytes arrived in ${seconds.toFixed(1)} s, at least ${expected} were due`);
  }
}

/** Refusals in body-parser's shape, so that ./error-handler.ts answers them as it answers its own. */
class BodyError extends Error {
  constructor(
    readonly type: 'entity.too.large' | 'request.aborted',
    readonly status: number,
    readonly limit?: number,
  ) {
    super(type === 'entity.too.large' ? `the body is larger than ${limit ?? '?'} bytes` : 'the client closed the request');
  }
}

/**
 * Reads `req`'s body into `req.body` (a Buffer) under `rule`. A refusal rejects at once; its
 * answer closes the connection, so the rest of the body is never read.
 */
export function readRawBody(req: Request, res: Response, rule: RawBodyRule): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    let received = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearInterval(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('close', onAborted);
    };
    const refuse = (error: Error) => {
      finish();
      chunks.length = 0;
      req.pause();
      res.setHeader('Connection', 'close');
      res.once('finish', () => req.socket.destroy());
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > rule.limit) refuse(new BodyError('entity.too.large', 413, rule.limit));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      finish();
      req.body = Buffer.concat(chunks, received);
      resolve();
    };
    const onAborted = () => {
      finish();
      chunks.length = 0;
      reject(new BodyError('request.aborted', 400));
    };
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    if (declared > rule.limit) {
      refuse(new BodyError('entity.too.large', 413, rule.limit));
      return;
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('close', onAborted);
    const rate = rule.minRate;
    if (rate !== undefined) {
      timer = setInterval(() => {
        const seconds = (Date.now() - started) / 1000;
        const expected = Math.floor(Math.max(0, seconds - rate.graceSeconds) * rate.bytesPerSecond);
        if (received < expected) refuse(new BodyTooSlowError(received, expected, seconds, rate));
      }, CHECK_MS);
      timer.unref();
    }
  });
}
