/**
 * Wires one worker process from its configuration: database (migrated), pg-boss, object store,
 * model session (once per process), lyrics generator, encoder pool, retention timer, metrics.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import { closeDatabase, createDatabase } from '../../../core/src/db/database.ts';
import { migrate } from '../../../core/src/db/migrate.ts';
import { JOB_TIME_LIMIT_SECONDS } from '../../../core/src/generation-queue.ts';
import { createObjectStore } from '../../../core/src/object-store.ts';
import { fail, ok } from '../../../core/src/result.ts';
import type { Result } from '../../../core/src/result.ts';
import { createBoss, ensureGenerationQueue, logBossErrors } from '../../../core/src/queue.ts';
import { selectEncoderBackend, systemBinaryProbe } from '../audio/encoder-backend.ts';
import { createAudioProber } from '../../../core/src/audio/audio-prober.ts';
import { EncoderPool } from '../audio/encoder-pool.ts';
import { openSigningIdentity } from '../audio/signing-identity.ts';
import type { SigningIdentity } from '../audio/signing-identity.ts';
import type { WorkerEnv } from '../config.ts';
import { objectStoreOptionsFromEnv } from '../../../core/src/config/object-store-env.ts';
import { builtinLyricsGenerator } from '../lyrics/builtin-lyrics.ts';
import type { LyricsGenerator } from '../lyrics/lyrics-generator.ts';
import { loadOnnxLyricsGenerator } from '../lyrics/onnx-lyrics.ts';
import { loadSongModel } from '../model/load-song-model.ts';
import { pacedSongModel } from '../model/paced-song-model.ts';
import { sweepRetention } from '../retention/sweep.ts';
import { calibrateModel } from './calibration.ts';
import type { CalibrationReport } from './calibration.ts';
import { createWorkerMetrics, serveMetrics } from './metrics.ts';
import { holdAtStage } from './stage-hold.ts';
import type { WorkerLogger } from './worker.ts';
import { DEFAULT_HEARTBEAT_INTERVAL_MS, createWorker } from './worker.ts';

export interface WorkerProcess {
  device: 'cuda' | 'cpu';
  stop(): Promise<void>;
}

export type StartResult = Result<WorkerProcess>;

export async function startWorkerProcess(config: WorkerEnv, logger: WorkerLogger): Promise<StartResult> {
  // Checked before anything starts: a worker that cannot sign would publish songs without credentials.
  const identity = await openSigningIdentity(config);
  if (!identity.ok) return fail({ code: identity.error.code, message: identity.error.message });
  logger.info(
    { subject: identity.value.subject, notAfter: identity.value.notAfter.toISOString(), key: identity.value.key },
    'C2PA signing identity loaded',
  );
  const started = await startWithIdentity(config, logger, identity.value);
  if (!started.ok) await identity.value.close();
  return started;
}

async function startWithIdentity(config: WorkerEnv, logger: WorkerLogger, identity: SigningIdentity): Promise<StartResult> {
  const loadedModel = await loadSongModel({ modelDir: config.MODEL_DIR, device: config.MODEL_DEVICE });
  if (!loadedModel.ok) return fail({ code: loadedModel.error.code, message: loadedModel.error.message });
  const pace = config.INFERENCE_TEST_MODEL_MS_PER_AUDIO_SECOND;
  const model = pace > 0 ? ok(pacedSongModel(loadedModel.value, pace)) : loadedModel;
  let lyrics: LyricsGenerator = builtinLyricsGenerator;
  if (config.LYRICS_MODEL_DIR !== undefined) {
    const loaded = await loadOnnxLyricsGenerator(config.LYRICS_MODEL_DIR);
    if (!loaded.ok) {
      await model.value.release();
      return loaded;
    }
    lyrics = loaded.value;
  }

  const backend = selectEncoderBackend(config.MP3_ENCODER, systemBinaryProbe);
  const pool = new EncoderPool(config.ENCODER_THREADS);
  const encoder = { backend, pool, parallelism: config.ENCODER_THREADS };
  // Measured before the first heartbeat: the worker is live only once it knows what it can finish.
  let calibration: CalibrationReport;
  try {
    calibration = await calibrateModel(
      model.value,
      encoder,
      { jobTimeLimitMs: config.JOB_TIME_LIMIT_MS, concurrency: config.WORKER_CONCURRENCY },
      AbortSignal.timeout(config.JOB_TIME_LIMIT_MS * model.value.steps.length),
    );
  } catch (error) {
    await pool.close();
    await model.value.release();
    return fail({
      code: 'MODEL_CALIBRATION_FAILED',
      message: `the model's calibration render failed: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  logger.info({ speed: calibration.speed, measuredMs: calibration.measuredMs }, 'model calibrated');

  try {
    await migrate(config.DATABASE_URL);
  } catch (error) {
    // A database that refuses or never answers within the migration deadlines: the worker exits
    // and its supervisor starts it again (docs/operations.md, "Deadlines").
    await pool.close();
    await model.value.release();
    return fail({
      code: 'DATABASE_UNAVAILABLE',
      message: `the database could not be migrated: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  const db = createDatabase(config.DATABASE_URL, { max: config.WORKER_CONCURRENCY * 2 + 4 });
  const boss = createBoss(config.DATABASE_URL, { max: config.WORKER_CONCURRENCY + 2 });
  logBossErrors(boss, logger);
  await boss.start();
  await ensureGenerationQueue(boss);
  const store = createObjectStore(objectStoreOptionsFromEnv(config));
  // An edit of an upload decodes it in a bounded thread (core/src/audio/audio-prober.ts), under the
  // oracle's budgets (its wall-clock deadline included); one decode per job this worker runs.
  const uploadDecoder = createAudioProber({ perAccount: config.WORKER_CONCURRENCY, maxWaiting: config.WORKER_CONCURRENCY });
  const metrics = createWorkerMetrics({
    device: model.value.device,
    model: model.value.name,
    version: model.value.version,
    encoder: backend,
  });
  const worker = createWorker(
    {
      workerId: config.WORKER_ID ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`,
      concurrency: config.WORKER_CONCURRENCY,
      fleetSlots: config.FLEET_SLOTS,
      jobTimeLimitMs: config.JOB_TIME_LIMIT_MS,
      pollIntervalMs: config.POLL_INTERVAL_MS,
      heartbeatIntervalMs: DEFAULT_HEARTBEAT_INTERVAL_MS,
      modelSpeed: calibration.speed,
    },
    {
      db,
      boss,
      store,
      uploadDecoder,
      pipeline: {
        model: model.value,
        lyrics,
        encoder,
        signingIdentity: identity,
        slowModelMs: config.INFERENCE_TEST_SLOW_MODEL_MS,
        ...(config.INFERENCE_TEST_HOLD_AT_STAGE === undefined
          ? {}
          : {
              enterStage: holdAtStage(
                config.INFERENCE_TEST_HOLD_AT_STAGE,
                config.INFERENCE_TEST_HOLD_MS ?? config.JOB_TIME_LIMIT_MS,
                logger,
              ),
            }),
      },
      logger,
      onJobSettled: (outcome, song) => metrics.jobSettled(outcome, song),
    },
  );
  await worker.start();
  logger.info({ backend, threads: config.ENCODER_THREADS }, 'encoder selected');

  const sweep = (): void => {
    sweepRetention(db, store, { abandonedAfterSeconds: 2 * JOB_TIME_LIMIT_SECONDS + 120 }).then(
      (report) => {
        if (
          report.ran &&
          (report.audioPurged + report.previewsDeleted + report.uploadsDeleted + report.abandonedFailed > 0 || report.errors.length > 0)
        ) {
          logger.info({ ...report }, 'retention sweep');
        }
      },
      (err: unknown) => logger.warn({ err }, 'retention sweep failed'),
    );
  };
  const retentionTimer = setInterval(sweep, config.RETENTION_INTERVAL_SECONDS * 1000);
  let metricsServer: Server | undefined;
  if (config.WORKER_METRICS_PORT !== undefined) metricsServer = await serveMetrics(metrics, config.WORKER_METRICS_PORT);

  let stopped = false;
  return ok({
    device: model.value.device,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(retentionTimer);
      await worker.stop(config.SHUTDOWN_GRACE_MS);
      metricsServer?.close();
      await pool.close();
      await uploadDecoder.close();
      await boss.stop({ graceful: false, close: true });
      await closeDatabase(db);
      store.close();
      await model.value.release();
      await identity.close();
    },
  });
}
