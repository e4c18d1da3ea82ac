/**
 * A minimal Server-Sent Events reader over fetch for tests: the blocks of a `text/event-stream`
 * one at a time (events, comments, `retry:`), with a deadline per block.
 */

export interface SseBlock {
  event?: string;
  id?: string;
  data?: string;
  retry?: number;
  /** Text of `:` comment lines (heartbeats). */
  comments: string[];
}

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The body when the answer is not a stream (an error). */
  errorBody: unknown;
  /** The next block, or null once the server ended the stream. Rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseBlock | null>;
  /** The next block that is an event (skips comments and `retry:`). */
  nextEvent(timeoutMs?: number): Promise<SseBlock | null>;
  /** Drops the connection (the client going away). */
  close(): void;
}

export async function openEventStream(
  url: string,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<SseConnection> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(url, { headers, signal: controller.signal });
  const streaming = response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream') && response.body !== null;
  let errorBody: unknown;
  if (!streaming) {
    const text = await response.text();
    try {
      errorBody = JSON.parse(text);
    } catch {
      errorBody = text;
    }
  }
  const reader = streaming && response.body !== null ? response.body.pipeThrough(new TextDecoderStream()).getReader() : undefined;
  let buffer = '';
  let finished = !streaming;
  let pending: ReturnType<NonNullable<typeof reader>['read']> | undefined;

  const parse = (raw: string): SseBlock => {
    const block: SseBlock = { comments: [] };
    for (const line of raw.split('\n')) {
      if (line.startsWith(':')) {
        block.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') block.event = value;
      else if (field === 'id') block.id = value;
      else if (field === 'data') block.data = block.data === undefined ? value : `${block.data}\n${value}`;
      else if (field === 'retry') block.retry = Number(value);
    }
    return block;
  };

  async function next(timeoutMs = 30_000): Promise<SseBlock | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end !== -1) {
        const raw = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return parse(raw);
      }
      if (finished || reader === undefined) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SSE block within ${timeoutMs} ms`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`no SSE block within ${timeoutMs} ms`)), left);
      });
      // A read still pending from a timed-out call is kept, so no chunk is lost.
      pending ??= reader.read();
      try {
        const { value, done } = await Promise.race([pending, timeout]);
        pending = undefined;
        if (done) finished = true;
        else buffer += value;
      } finally {
        clearTimeout(timer);
      }
    }
  }

  return {
    status: response.status,
    headers: response.headers,
    errorBody,
    next,
    async nextEvent(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const block = await next(Math.max(1, deadline - Date.now()));
        if (block === null || block.event !== undefined || block.data !== undefined) return block;
      }
    },
    close() {
      controller.abort();
      // The aborted read rejects; nobody waits for it any more.
      pending?.catch(() => undefined);
    },
  };
}
