/**
 * How a job attempt publishes its file (a song's public MP3, a preview's private one): one
 * create-only write that a late upload can never replace.
 *
 * Every attempt of a job writes other bytes (each MP3 carries its own signed C2PA manifest), and
 * an upload abandoned at its deadline may still reach the store later, as TCP delivers what a
 * partition held. Unconditional, that late PUT would replace the published file after its hash
 * was recorded; create-only (`If-None-Match: *`) it is refused (412) and changes nothing.
 */
import type { ObjectStore, PutOptions, StoreResult } from './object-store.ts';
import { ok } from './result.ts';

/** Times an object left at the key is cleared before the write gives up (each needs another PUT landing in between). */
const CLEARED_LEFTOVERS = 3;

/**
 * Stores `bytes` at `key` create-only. The caller holds its row's lock and is the one attempt
 * allowed to publish, so an object already at the key is a leftover (a dead attempt's late
 * upload, or an earlier preview of the same session): it is deleted and the write tried again.
 */
export async function publishObject(
  store: Pick<ObjectStore, 'put' | 'delete'>,
  key: string,
  bytes: Uint8Array,
  options: Omit<PutOptions, 'ifAbsent'>,
): Promise<StoreResult<void>> {
  for (let cleared = 0; ; cleared++) {
    const put = await store.put(key, bytes, { ...options, ifAbsent: true });
    if (put.ok) return ok(undefined);
    if (put.error.code !== 'exists' || cleared === CLEARED_LEFTOVERS) return put;
    const removed = await store.delete(key);
    if (!removed.ok && removed.error.code !== 'not_found') return removed;
  }
}
