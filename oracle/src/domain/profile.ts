import type { Database } from '../../../core/src/db/database.ts';
import { JOB_STATUS, sqlStatus } from '../../../core/src/jobs/job-state.ts';
import { TIER_LIMITS } from './limits.ts';
import { dailyGenerationsUsed } from '../../../core/src/daily-generations.ts';
import { findUserById } from './users.ts';
import { readUsage } from './request-charge.ts';
import type { LimitUsage } from './request-charge.ts';
import { liveModels } from './live-models.ts';
import type { LiveModels } from './live-models.ts';
import { storageUsage } from '../../../core/src/storage-quota.ts';
import { storageView } from './storage.ts';
import type { StorageView } from './storage.ts';

/** One limit as the profile shows it. */
export interface LimitView {
  limit: number;
  used: number;
  remaining: number;
  reset_at: string;
}

function limitView(usage: LimitUsage): LimitView {
  return { limit: usage.limit, used: usage.used, remaining: usage.remaining, reset_at: usage.resetAt.toISOString() };
}

export interface ProfileView {
  id: string;
  wallet_address: string;
  social_fid: string | null;
  tier: 'free' | 'pro' | 'enterprise';
  daily_generations: number;
  daily_limit: number;
  max_duration: number;
  last_generation_reset: string;
  total_generations: number;
  total_minted: number;
  created_at: string;
  updated_at: string;
  statistics: {
    jobs: { queued: number; processing: number; completed: number; failed: number };
    audio_seconds_generated: number;
    minted: number;
  };
  limits: {
    songs: { daily: LimitView; hourly: LimitView };
    previews: { hourly: LimitView };
  };
  /** The models the live workers run; `sings` says whether lyrics are sung (./live-models.ts). */
  models: LiveModels;
  /** Bytes stored for the account against its tier's quota (core/src/storage-quota.ts). */
  storage: StorageView;
}

/** The user's fields and statistics (GET /v1/user/profile). */
export async function userProfile(db: Database, userId: string, today: string): Promise<ProfileView | null> {
  const user = await findUserById(db, userId);
  if (user === null) return null;
  const usagePromise = readUsage(db, user);
  const modelsPromise = liveModels(db);
  const storagePromise = storageUsage(db, userId);
  const stats = await db.one<{
    queued: number;
    processing: number;
    completed: number;
    failed: number;
    audio_seconds: number;
    minted: number;
  }>(
    `SELECT count(*) FILTER (WHERE status = ${sqlStatus(JOB_STATUS.queued)})::int AS queued,
            count(*) FILTER (WHERE status = ${sqlStatus(JOB_STATUS.processing)})::int AS processing,
            count(*) FILTER (WHERE status = ${sqlStatus(JOB_STATUS.completed)})::int AS completed,
            count(*) FILTER (WHERE status = ${sqlStatus(JOB_STATUS.failed)})::int AS failed,
            coalesce(sum(actual_duration) FILTER (WHERE status = ${sqlStatus(JOB_STATUS.completed)}), 0)::float AS audio_seconds,
            count(*) FILTER (WHERE nft_token_id IS NOT NULL)::int AS minted
     FROM generation_jobs WHERE user_id = $1`,
    [userId],
  );
  const [usage, models, storage] = await Promise.all([usagePromise, modelsPromise, storagePromise]);
  if (storage === null) return null;
  const limits = TIER_LIMITS[user.tier];
  const dailyUsed = dailyGenerationsUsed(user, today);
  return {
    id: user.id,
    wallet_address: user.walletAddress,
    social_fid: user.socialFid,
    tier: user.tier,
    daily_generations: dailyUsed,
    daily_limit: limits.dailyGenerations,
    max_duration: limits.maxDurationSeconds,
    last_generation_reset: user.lastGenerationReset,
    total_generations: user.totalGenerations,
    total_minted: user.totalMinted,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
    statistics: {
      jobs: { queued: stats.queued, processing: stats.processing, completed: stats.completed, failed: stats.failed },
      audio_seconds_generated: stats.audio_seconds,
      minted: stats.minted,
    },
    limits: {
      songs: { daily: limitView(usage.songs.daily), hourly: limitView(usage.songs.hourly) },
      previews: { hourly: limitView(usage.previews.hourly) },
    },
    models,
    storage: storageView(storage),
  };
}
