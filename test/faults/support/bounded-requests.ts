/** Requests a fault test sends under load: each waits at most the request deadline plus slack, and a missing answer is recorded, not thrown. */
import { REQUEST_DEADLINE_MS } from '../../../core/src/db/database.ts';
import type { HttpResult } from './cluster.ts';
import { httpRequest } from './cluster.ts';

/** Timers fire late on a loaded machine; a request unanswered past deadline + slack is a hang. */
export const SCHEDULING_SLACK_MS = 3000;

export interface Outcome {
  what: string;
  /** Undefined when no answer came within the deadline plus slack. */
  response: HttpResult | undefined;
  ms: number;
}

export async function bounded(what: string, url: string, options: Parameters<typeof httpRequest>[1] = {}): Promise<Outcome> {
  const started = performance.now();
  const response = await httpRequest(url, { ...options, timeoutMs: REQUEST_DEADLINE_MS + SCHEDULING_SLACK_MS }).catch(() => undefined);
  return { what, response, ms: Math.round(performance.now() - started) };
}
