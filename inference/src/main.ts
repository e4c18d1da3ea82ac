/**
 * Inference worker entry point (`npm run worker`): configuration from the environment, then the
 * worker runs until SIGTERM/SIGINT, when it stops claiming, finishes its jobs and exits.
 */
import pino from 'pino';
import { loadWorkerConfig } from './config.ts';
import type { WorkerProcess } from './worker/process.ts';
import { startWorkerProcess } from './worker/process.ts';

const loaded = loadWorkerConfig(process.env);
if (!loaded.ok) {
  pino({ base: { component: 'inference-worker' } }).fatal({ problems: loaded.error.problems }, 'invalid worker configuration');
  process.exit(2);
}
const logger = pino({ level: loaded.value.LOG_LEVEL, base: { component: 'inference-worker' } });

// Signals are handled from the start: the worker may claim a job before startup returns.
const state: { running?: WorkerProcess; signal?: string } = {};
const shutdown = (): void => {
  if (state.running === undefined || state.signal === undefined) return;
  logger.info({ signal: state.signal }, 'shutting down');
  state.running.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    },
  );
};
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (state.signal !== undefined) return;
    state.signal = signal;
    shutdown();
  });
}

const started = await startWorkerProcess(loaded.value, logger);
if (!started.ok) {
  logger.fatal({ code: started.error.code }, started.error.message);
  process.exit(1);
}
state.running = started.value;
logger.info({ device: started.value.device }, 'worker running');
shutdown();
