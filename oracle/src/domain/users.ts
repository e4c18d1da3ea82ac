import type { Database, DatabaseTask } from '../../../core/src/db/database.ts';
import type { Tier } from '../../../core/src/generation-queue.ts';

export interface User {
  id: string;
  walletAddress: string;
  socialFid: string | null;
  tier: Tier;
  dailyGenerations: number;
  lastGenerationReset: string;
  totalGenerations: number;
  totalMinted: number;
  createdAt: Date;
  updatedAt: Date;
}

interface UserRow {
  id: string;
  wallet_address: string;
  social_fid: string | null;
  tier: Tier;
  daily_generations: number;
  last_generation_reset: string;
  total_generations: number;
  total_minted: number;
  created_at: Date;
  updated_at: Date;
}

const USER_COLUMNS = `id, wallet_address, social_fid::text AS social_fid, tier, daily_generations,
  to_char(last_generation_reset, 'YYYY-MM-DD') AS last_generation_reset, total_generations,
  total_minted, created_at, updated_at`;

function toUser(row: UserRow): User {
  return {
    id: row.id,
    walletAddress: row.wallet_address,
    socialFid: row.social_fid,
    tier: row.tier,
    dailyGenerations: row.daily_generations,
    lastGenerationReset: row.last_generation_reset,
    totalGenerations: row.total_generations,
    totalMinted: row.total_minted,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findUserById(db: Database | DatabaseTask, id: string): Promise<User | null> {
  const row = await db.oneOrNone<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return row === null ? null : toUser(row);
}

/** The user a Farcaster fid is linked to (`social_fid` is unique), or null. */
export async function findUserByFid(db: Database | DatabaseTask, fid: bigint): Promise<User | null> {
  const row = await db.oneOrNone<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE social_fid = $1`, [fid.toString()]);
  return row === null ? null : toUser(row);
}

/** Creates the user of `walletAddress` (lower-case hex) on first sign-in; returns it either way. */
export async function upsertUserByWallet(db: Database | DatabaseTask, walletAddress: string): Promise<User> {
  const row = await db.one<UserRow>(
    `INSERT INTO users (wallet_address) VALUES ($1)
     ON CONFLICT (wallet_address) DO UPDATE SET updated_at = now()
     RETURNING ${USER_COLUMNS}`,
    [walletAddress],
  );
  return toUser(row);
}

export type FidLink = 'linked' | 'taken';

/** Records a verified social fid; `taken` when another user already holds it. */
export async function linkSocialFid(db: Database | DatabaseTask, userId: string, fid: bigint): Promise<FidLink> {
  const taken = await db.oneOrNone<{ id: string }>('SELECT id FROM users WHERE social_fid = $1 AND id <> $2', [fid.toString(), userId]);
  if (taken !== null) return 'taken';
  await db.none('UPDATE users SET social_fid = $1, updated_at = now() WHERE id = $2', [fid.toString(), userId]);
  return 'linked';
}

/** Operator action (scripts/set-tier.ts): tiers are never set by clients. */
export async function setUserTier(db: Database, walletAddress: string, tier: Tier): Promise<boolean> {
  const result = await db.result('UPDATE users SET tier = $1, updated_at = now() WHERE wallet_address = $2', [tier, walletAddress]);
  return result.rowCount === 1;
}
