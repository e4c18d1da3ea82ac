/**
 * The INFERENCE_TEST_HOLD_AT_STAGE hook (docs/operations.md): every attempt stops at one named
 * stage and waits there, logging where, for `holdMs` (INFERENCE_TEST_HOLD_MS) or until the job's
 * time limit aborts it. The fault suite
 * (test/faults/long/components.test.ts) SIGKILLs the worker while it waits, to prove each stage's
 * crash leaves the job to complete exactly once. Unset (production), no hook is installed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PipelineStage, StageHook } from './pipeline.ts';
import type { WorkerLogger } from './worker.ts';

/** The log line a test waits for: `test hook: holding at stage <stage>`. */
export const HOLD_LOG_PREFIX = 'test hook: holding at stage';

export function holdAtStage(held: PipelineStage, holdMs: number, logger: WorkerLogger): StageHook {
  return async (stage, signal) => {
    if (stage !== held) return;
    logger.warn({ stage }, `${HOLD_LOG_PREFIX} ${stage}`);
    await sleep(holdMs, undefined, { signal });
  };
}
