/**
 * Inference worker entry point (`npm run worker`): configuration from the environment, then the
 * worker runs until SIGTERM/SIGINT, when it stops claiming, finishes its jobs and exits.
 */
import pino from 'pino';
import { loadWorkerConfig } from './config.ts';
import { startWorkerProcess } from './worker/process.ts';

const loaded = loadWorkerConfig(process.env);
if (!loaded.ok) {
  console.error(`invalid worker configuration:\n  ${loaded.problems.join('\n  ')}`);
  process.exit(2);
}
const logger = pino({ level: loaded.config.LOG_LEVEL, base: { component: 'inference-worker' } });
const started = await startWorkerProcess(loaded.config, (level, message, fields) => logger[level](fields ?? {}, message));
if (!started.ok) {
  logger.fatal({ code: started.code }, started.message);
  process.exit(1);
}
const { process: running } = started;
logger.info({ device: running.device }, 'worker running');

let stopping = false;
const shutdown = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  running.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ error: err instanceof Error ? err.message : String(err) }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
