/**
 * The worker's Prometheus metrics (own registry): jobs by outcome, stage durations, the device
 * and model in use. Served on WORKER_METRICS_PORT when set.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Song } from './pipeline.ts';

export interface WorkerMetrics {
  registry: Registry;
  jobSettled(outcome: string, song: Song | undefined): void;
}

export function createWorkerMetrics(info: { device: string; model: string; version: string; encoder: string }): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const device = new Gauge({
    name: 'inference_worker_info',
    help: 'Execution device, model and MP3 encoder of this worker (value 1).',
    labelNames: ['device', 'model', 'version', 'encoder'] as const,
    registers: [registry],
  });
  device.set(info, 1);
  const jobs = new Counter({
    name: 'inference_jobs_total',
    help: 'Job attempts by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const stages = new Histogram({
    name: 'inference_stage_seconds',
    help: 'Seconds spent per pipeline stage of completed jobs.',
    labelNames: ['stage', 'device'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  return {
    registry,
    jobSettled(outcome, song) {
      jobs.inc({ outcome });
      if (song === undefined) return;
      for (const [stage, ms] of Object.entries(song.timings))
        stages.observe({ stage: stage.replace(/Ms$/, ''), device: info.device }, ms / 1000);
    },
  };
}

export function serveMetrics(metrics: WorkerMetrics, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  return new Promise((resolve) => server.listen(port, '0.0.0.0', () => resolve(server)));
}
