import type { Tier } from '../../../core/src/generation-queue.ts';

/** The spec's tier table: daily generations and maximum duration (seconds). */
export const TIER_LIMITS: Readonly<Record<Tier, { dailyGenerations: number; maxDurationSeconds: number }>> = {
  free: { dailyGenerations: 10, maxDurationSeconds: 30 },
  pro: { dailyGenerations: 100, maxDurationSeconds: 120 },
  // "Described as unlimited; the enforced daily count is 10000."
  enterprise: { dailyGenerations: 10000, maxDurationSeconds: 240 },
};
