/**
 * What a creator says of themself (issue 51 item 5) and what a profile shows (issue 53 item 5):
 * a display name, a bio and an avatar, set by the signed-in account (PATCH /v1/user/profile) and
 * read by anyone (GET /v1/public/creators/{address}, GET /v1/user/profile). The words' rules are
 * ./profile-text.ts; the avatar is checked exactly as a cover is (./cover-image.ts) and stored as
 * covers are (the object store's public `covers/` prefix, counted for the storage quota, added to
 * IPFS and pinned when pinning is configured). Where the creator set no name or no avatar, the
 * linked fid's Farcaster user data fills in, when a hub is configured (./farcaster-user-data.ts).
 */
import { contentHash, sha256OfContentHash } from '../../../core/src/content-hash.ts';
import type { Database, Queryable } from '../../../core/src/db/database.ts';
import type { ObjectStore } from '../../../core/src/object-store.ts';
import { releaseStorage } from '../../../core/src/storage-quota.ts';
import type { IpfsContentStore } from '../ipfs/content-store.ts';
import type { PinningClient } from '../ipfs/pinning-client.ts';
import { decodeCoverImage } from './cover-image.ts';
import type { CoverType } from './cover-image.ts';
import { appError, fail, ok } from './errors.ts';
import type { Result } from './errors.ts';
import type { FarcasterUserData, FarcasterUserDataReader } from './farcaster-user-data.ts';
import { claimCoverStorage } from './metadata.ts';
import { storageQuotaExceeded } from './storage.ts';

/** A change of the profile: an absent field stays as it is, null clears it. */
export interface ProfileChange {
  displayName?: string | null;
  bio?: string | null;
  /** A base64 data URI, checked as a cover is. */
  avatar?: string | null;
}

export interface OwnAvatar {
  url: string;
  ipfs: string;
  content_type: string;
}

/** A profile as the API shows it (`PublicProfile` in the OpenAPI document). */
export interface PublicProfileView {
  /** What to call the creator: their display name, else the fid's Farcaster display name, else its username; null: the address. */
  name: string | null;
  /** The picture to show: their avatar, else the fid's Farcaster picture. */
  avatar_url: string | null;
  display_name: string | null;
  bio: string | null;
  avatar: OwnAvatar | null;
  farcaster: FarcasterUserData | null;
}

export interface ProfileDeps {
  db: Database;
  objectStore: Pick<ObjectStore, 'put' | 'delete' | 'publicUrl'>;
  ipfs: Pick<IpfsContentStore, 'add'>;
  pinning?: PinningClient | undefined;
}

interface ProfileRow {
  display_name: string | null;
  bio: string | null;
  avatar_key: string | null;
  avatar_cid: string | null;
  avatar_content_type: string | null;
  social_fid: string | null;
}

const PROFILE_COLUMNS = 'display_name, bio, avatar_key, avatar_cid, avatar_content_type, social_fid::text AS social_fid';

/**
 * The display names the accounts of `addresses` set (PATCH /v1/user/profile), keyed by lowercase
 * address; an address without an account or a name is absent. One query for a whole list (a coin's
 * holders, a page of its trades), so a list names known creators without a read per row.
 */
export async function displayNamesOf(db: Queryable, addresses: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(addresses.map((address) => address.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = await db.manyOrNone<{ wallet_address: string; display_name: string }>(
    'SELECT wallet_address, display_name FROM users WHERE wallet_address = ANY($1::text[]) AND display_name IS NOT NULL',
    [wanted],
  );
  return new Map(rows.map((row) => [row.wallet_address, row.display_name]));
}

/** An avatar never changes at its key (the key names its bytes). */
const AVATAR_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const EXTENSIONS: Readonly<Record<CoverType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** Under the public `covers/` prefix, so that no bucket policy needs a new public prefix; one account's, named by its bytes. */
export function avatarObjectKey(userId: string, bytes: Uint8Array, contentType: CoverType): string {
  return `covers/avatar-${userId}-${sha256OfContentHash(contentHash(bytes)).slice(0, 32)}.${EXTENSIONS[contentType]}`;
}

async function view(
  row: ProfileRow | null,
  objectStore: Pick<ObjectStore, 'publicUrl'> | undefined,
  farcaster: FarcasterUserDataReader | undefined,
): Promise<PublicProfileView> {
  const avatar =
    row === null || row.avatar_key === null || row.avatar_cid === null || row.avatar_content_type === null || objectStore === undefined
      ? null
      : { url: objectStore.publicUrl(row.avatar_key), ipfs: `ipfs://${row.avatar_cid}`, content_type: row.avatar_content_type };
  const displayName = row?.display_name ?? null;
  const fid = row?.social_fid ?? null;
  // The hub is asked only for what the creator did not set.
  const needsHub = displayName === null || avatar === null;
  const fromHub = fid !== null && needsHub && farcaster !== undefined ? await farcaster(fid) : null;
  return {
    name: displayName ?? fromHub?.display_name ?? fromHub?.username ?? null,
    avatar_url: avatar?.url ?? fromHub?.pfp_url ?? null,
    display_name: displayName,
    bio: row?.bio ?? null,
    avatar,
    farcaster: fromHub,
  };
}

/** The profile of the account `userId`. */
export async function profileOfUser(
  db: Queryable,
  userId: string,
  services: { objectStore?: Pick<ObjectStore, 'publicUrl'> | undefined; farcaster?: FarcasterUserDataReader | undefined },
): Promise<PublicProfileView> {
  const row = await db.oneOrNone<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM users WHERE id = $1`, [userId]);
  return view(row, services.objectStore, services.farcaster);
}

/** The profile of whoever signed in with `address` (any case); all null for an address no account has. */
export async function profileOfAddress(
  db: Queryable,
  address: string,
  services: { objectStore?: Pick<ObjectStore, 'publicUrl'> | undefined; farcaster?: FarcasterUserDataReader | undefined },
): Promise<PublicProfileView> {
  const row = await db.oneOrNone<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM users WHERE wallet_address = $1`, [address.toLowerCase()]);
  return view(row, services.objectStore, services.farcaster);
}

/** What the account signed in with `address` set itself (no hub, no object store): for link previews read from the database. */
export async function ownProfileOfAddress(
  db: Queryable,
  address: string,
): Promise<{ displayName: string | null; bio: string | null; avatarIpfs: string | null } | null> {
  const row = await db.oneOrNone<ProfileRow>(`SELECT ${PROFILE_COLUMNS} FROM users WHERE wallet_address = $1`, [address.toLowerCase()]);
  if (row === null) return null;
  return { displayName: row.display_name, bio: row.bio, avatarIpfs: row.avatar_cid === null ? null : `ipfs://${row.avatar_cid}` };
}

/**
 * Applies `change` to the account `userId`: a new avatar is decoded and checked first, added to
 * IPFS (and pinned), counted for the storage quota and stored; the row is written last, so a
 * refusal leaves the profile as it was; the avatar it replaces is deleted and released after.
 */
export async function changeProfile(deps: ProfileDeps, userId: string, change: ProfileChange): Promise<Result<void>> {
  let stored: { key: string; cid: string; contentType: CoverType } | null = null;
  if (typeof change.avatar === 'string') {
    const decoded = await decodeCoverImage(change.avatar, 'avatar');
    if (!decoded.ok) return decoded;
    const image = decoded.value;
    const key = avatarObjectKey(userId, image.bytes, image.contentType);
    const cid = await deps.ipfs.add(image.bytes);
    if (deps.pinning !== undefined) {
      const pinned = await deps.pinning.pin({ cid, name: key, meta: { app: 'songmint' } });
      if (!pinned.ok) {
        return fail(
          appError('SERVICE_UNAVAILABLE', 'IPFS pinning failed', {
            details: `${pinned.error.code}: ${pinned.error.message}`,
            retryAfter: 30,
          }),
        );
      }
    }
    const claim = await claimCoverStorage(deps.db, userId, key, image.bytes.length);
    if (!claim.ok) return fail(storageQuotaExceeded(claim.usage, image.bytes.length, 'this avatar'));
    const put = await deps.objectStore.put(key, image.bytes, { contentType: image.contentType, cacheControl: AVATAR_CACHE_CONTROL });
    if (!put.ok) {
      if (claim.claimed) await releaseStorage(deps.db, [key]);
      return fail(appError('SERVICE_UNAVAILABLE', 'Object storage unavailable', { details: put.error.message, retryAfter: 5 }));
    }
    stored = { key, cid: cid.toString(), contentType: image.contentType };
  }

  const sets: string[] = [];
  const values: unknown[] = [userId];
  const set = (column: string, value: unknown) => {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  };
  if (change.displayName !== undefined) set('display_name', change.displayName);
  if (change.bio !== undefined) set('bio', change.bio);
  if (change.avatar !== undefined) {
    set('avatar_key', stored?.key ?? null);
    set('avatar_cid', stored?.cid ?? null);
    set('avatar_content_type', stored?.contentType ?? null);
  }
  if (sets.length === 0) return ok(undefined);
  // The row as it was, locked: a concurrent change waits and then reads this one's avatar.
  const previous = await deps.db.oneOrNone<{ avatar_key: string | null }>(
    `UPDATE users SET ${sets.join(', ')}, updated_at = now()
       FROM (SELECT id, avatar_key FROM users WHERE id = $1 FOR UPDATE) before
      WHERE users.id = before.id
     RETURNING before.avatar_key`,
    values,
  );
  if (previous === null) return fail(appError('NOT_FOUND', 'User not found'));
  const replaced = previous.avatar_key;
  if (change.avatar !== undefined && replaced !== null && replaced !== stored?.key) {
    // The replaced avatar is this account's alone (its key names the account): gone from the
    // store and from the quota. A failed delete leaves an orphan object, not a wrong profile.
    await releaseStorage(deps.db, [replaced]);
    await deps.objectStore.delete(replaced);
  }
  return ok(undefined);
}
