/**
 * The storage quota as the API shows and enforces it (core/src/storage-quota.ts holds the rule and
 * the counter): STORAGE_001 for a request whose bytes would pass the account's quota, refused
 * before anything is stored and given back from the hourly charge; the profile's `storage`.
 */
import type { StorageUsage } from '../../../core/src/storage-quota.ts';
import { appError } from './errors.ts';
import type { AppError } from './errors.ts';

/** Bytes in words: "1.50 GiB", "99.0 MiB", "512 B". */
export function byteWords(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

/** STORAGE_001: `needed` bytes (what `what` would store) do not fit beside `usage`. */
export function storageQuotaExceeded(usage: StorageUsage, needed: number, what: string): AppError {
  const free = Math.max(0, usage.quota - usage.used - usage.pending);
  return appError(
    'STORAGE_001',
    `Storage quota exceeded: ${what} needs ${byteWords(needed)}, ${byteWords(free)} of your ${byteWords(usage.quota)} is free`,
    {
      details:
        `stored ${usage.used} bytes` +
        (usage.pending > 0 ? `, ${usage.pending} bytes held for your songs in the queue` : '') +
        `, quota ${usage.quota} bytes; delete uploads or songs (or wait for retention) to make room. Nothing was stored and the request is not counted.`,
      fields: { needed_bytes: needed, used_bytes: usage.used, pending_bytes: usage.pending, quota_bytes: usage.quota },
    },
  );
}

/** The profile's `storage`. */
export interface StorageView {
  used_bytes: number;
  pending_bytes: number;
  quota_bytes: number;
  remaining_bytes: number;
}

export function storageView(usage: StorageUsage): StorageView {
  return {
    used_bytes: usage.used,
    pending_bytes: usage.pending,
    quota_bytes: usage.quota,
    remaining_bytes: Math.max(0, usage.quota - usage.used - usage.pending),
  };
}
