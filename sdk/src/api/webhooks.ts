/**
 * Webhooks (docs/api.md "Webhooks (extension)"): the signing secret routes, and `verifyWebhook`
 * for the receiving end. Verification follows Standard Webhooks: HMAC-SHA256 keyed with the
 * base64 part of `whsec_...` over `<webhook-id>.<webhook-timestamp>.<raw body>`, compared in
 * constant time, with a timestamp tolerance against replays. It uses WebCrypto, so it runs in
 * Node, browsers' service workers and edge runtimes alike.
 */
import { SongmintClientError } from '../errors.ts';
import type { SongmintApi } from './client.ts';
import { requireSession, unwrap } from './client.ts';
import type { JobStatus } from './generation.ts';

export interface WebhookSecret {
  /** `whsec_` and the base64 of the key. */
  secret: string;
  createdAt: Date;
}

/** Your webhook signing secret (GET /api/webhooks/secret); the first call makes it. */
export async function getWebhookSecret(api: SongmintApi, parameters: { signal?: AbortSignal } = {}): Promise<WebhookSecret> {
  requireSession(api);
  const { signal } = parameters;
  const found = await unwrap(api.http.GET('/api/webhooks/secret', { ...(signal === undefined ? {} : { signal }) }), signal);
  return { secret: found.secret, createdAt: new Date(found.created_at) };
}

/** Replaces your secret (POST /api/webhooks/secret/rotate); deliveries from now on are signed with the new one. */
export async function rotateWebhookSecret(api: SongmintApi, parameters: { signal?: AbortSignal } = {}): Promise<WebhookSecret> {
  requireSession(api);
  const { signal } = parameters;
  const made = await unwrap(api.http.POST('/api/webhooks/secret/rotate', { ...(signal === undefined ? {} : { signal }) }), signal);
  return { secret: made.secret, createdAt: new Date(made.created_at) };
}

/** A delivery's JSON body. */
export interface WebhookEvent {
  type: 'generation.completed' | 'generation.failed';
  /** When the job reached this state, ISO 8601. */
  timestamp: string;
  /** The job as GET /api/generate/{job_id} showed it. */
  data: JobStatus;
}

/** Header bags of fetch (`Headers`) and of node:http (`IncomingHttpHeaders`) both fit. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>;

export interface VerifyWebhookParameters {
  /** Your secret, `whsec_...` (getWebhookSecret). */
  secret: string;
  headers: WebhookHeaders;
  /** The raw request body, exactly as received (not re-serialized JSON). */
  body: string | Uint8Array;
  /** How far `webhook-timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time (tests). */
  now?: Date;
}

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof value === 'string' ? value : value?.[0];
}

function invalid(message: string): SongmintClientError {
  return new SongmintClientError('INVALID_WEBHOOK', message);
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
  return difference === 0;
}

/**
 * Checks a delivery's signature and age and returns its event; rejects with
 * `SongmintClientError` code `INVALID_WEBHOOK` otherwise. Deduplicate on `webhook-id`: a retry
 * of a delivery you already processed carries the same id.
 */
export async function verifyWebhook(parameters: VerifyWebhookParameters): Promise<WebhookEvent> {
  const { secret, headers, body, toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS, now = new Date() } = parameters;
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined)
    throw invalid('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw invalid('webhook-timestamp is not unix seconds');
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceSeconds) throw invalid('webhook-timestamp is outside the tolerance');
  const key = secret.startsWith('whsec_') ? base64Bytes(secret.slice('whsec_'.length)) : null;
  if (key === null || key.length === 0) throw invalid('the secret is not a whsec_ secret');
  const encoder = new TextEncoder();
  const bodyBytes = typeof body === 'string' ? encoder.encode(body) : body;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix);
  signed.set(bodyBytes, prefix.length);
  const cryptoKey = await globalThis.crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', cryptoKey, signed));
  // The header may list several signatures (space separated), e.g. during a key change.
  const matched = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || value === undefined) return false;
    const given = base64Bytes(value);
    return given !== null && equalBytes(given, expected);
  });
  if (!matched) throw invalid('no signature matches');
  try {
    return JSON.parse(new TextDecoder().decode(bodyBytes)) as WebhookEvent;
  } catch {
    throw invalid('the body is not JSON');
  }
}
