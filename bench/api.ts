/**
 * API load benchmark (`npm run bench:api`): POST /api/signature and GET /api/generate/{id} of the
 * real oracle (embedded PostgreSQL, s3rver, bearer auth, hourly limits, real signing), beside a
 * bare Express route that returns the same JSON, measured with autocannon in the same run.
 *
 * The oracle runs in a child process and s3rver in another; autocannon drives them from this one,
 * so the load generator shares no event loop with the servers (all share the machine's cores, as
 * does PostgreSQL). CPU time per request of the server, PostgreSQL and s3rver (from /proc, so
 * Linux only) is reported beside throughput: it depends much less than req/s on what else the
 * machine is running.
 * Every signature request names a different completed job (a job is signed once), so issuance
 * here is the whole path: auth, hourly limit, job lookup, the audio hash check against the stored
 * object, ECDSA signature and the exactly-once claim. The audio objects are uploaded as the worker
 * uploads them, with their SHA-256 as an S3 additional checksum, and issuance is measured on both
 * paths of the hash check (docs/storage-and-signatures.md): the store's checksum read by a HEAD
 * (AWS S3's default here; s3rver gets checksums from core/src/testing/s3-checksums.ts), and the
 * object downloaded and hashed (a store without checksums, `S3_STORED_CHECKSUMS=false`).
 *
 * Environment: BENCH_CONNECTIONS (default 32), BENCH_POLL_SECONDS (5 per round), BENCH_POLL_ROUNDS (5),
 * BENCH_SIGNATURES (4000 on the checksum path, half as many on the download path), BENCH_AUDIO_BYTES (200000: 5 s of 320 kbps MP3, the shortest song),
 * BENCH_DB_POOL (2 x cores + 1), BENCH_CPU_PROFILE (a directory: a V8 CPU profile of the oracle process per measured run).
 *
 * This file is the load generator and the entry point; bench/api/ holds the server process
 * (server.ts), /proc CPU accounting, the profiler, autocannon's typing, the figures and the report.
 */
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { autocannon, rotating } from './api/autocannon.ts';
import type { AutocannonOptions, AutocannonResult } from './api/autocannon.ts';
import { ceilings, combine, median } from './api/figures.ts';
import type { Figures } from './api/figures.ts';
import type { CpuSnapshot, FromServer, Seeded } from './api/protocol.ts';
import { markdown } from './api/report.ts';
import type { Report } from './api/report.ts';
import { serve, serveS3 } from './api/server.ts';
import {
  AUDIO_BYTES,
  CONNECTIONS,
  DB_POOL,
  DOWNLOAD_SIGNATURES,
  METADATA_URI,
  POLL_ROUNDS,
  POLL_SECONDS,
  SIGNATURES,
  SIGNATURE_WARMUP,
} from './api/settings.ts';

function serverCpu(server: ChildProcess): Promise<CpuSnapshot> {
  return new Promise((resolve) => {
    const onMessage = (message: FromServer) => {
      if (message.type !== 'cpu') return;
      server.off('message', onMessage);
      resolve(message.cpu);
    };
    server.on('message', onMessage);
    server.send('cpu');
  });
}

function profile(server: ChildProcess, command: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: FromServer) => {
      if (message.type !== 'profiled') return;
      server.off('message', onMessage);
      resolve();
    };
    server.on('message', onMessage);
    server.send(`profile:${command}`);
  });
}

async function measure(server: ChildProcess, name: string, options: AutocannonOptions): Promise<Figures> {
  await profile(server, 'start');
  const cpuBefore = await serverCpu(server);
  const ownBefore = process.cpuUsage();
  // autocannon's own `duration` is whole seconds, and an `amount` run ends on its next 1 s tick:
  // the run's time is taken here, from its start to its last response.
  const started = performance.now();
  let lastResponse = started;
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon(options, (error, finished) => (error === null ? resolve(finished) : reject(error)));
    instance.on('response', () => {
      lastResponse = performance.now();
    });
  });
  const seconds = (lastResponse - started) / 1000;
  const own = process.cpuUsage(ownBefore);
  const cpuAfter = await serverCpu(server);
  await profile(server, name);
  const perRequest = (key: keyof CpuSnapshot) => Number(((cpuAfter[key] - cpuBefore[key]) / Math.max(result['2xx'], 1)).toFixed(3));
  const figures: Figures = {
    name,
    requestsPerSecond: Math.round(result['2xx'] / seconds),
    serverCpuMsPerRequest: perRequest('oracle'),
    postgresCpuMsPerRequest: perRequest('postgres'),
    s3CpuMsPerRequest: perRequest('s3'),
    loadGeneratorCpuMsPerRequest: Number(((own.user + own.system) / 1000 / Math.max(result['2xx'], 1)).toFixed(3)),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    seconds: Number(seconds.toFixed(3)),
    succeeded: result['2xx'],
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  console.log(
    `${name.padEnd(34)} ${String(figures.requestsPerSecond).padStart(7)} req/s  p50 ${figures.p50Ms} ms  p99 ${figures.p99Ms} ms  CPU ms/req: server ${figures.serverCpuMsPerRequest}, postgres ${figures.postgresCpuMsPerRequest}, s3rver ${figures.s3CpuMsPerRequest}, autocannon ${figures.loadGeneratorCpuMsPerRequest}  (${figures.total} requests, ${figures.non2xx} non-2xx, ${figures.errors} errors)`,
  );
  return figures;
}

async function main(): Promise<void> {
  const server: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const seeded = await new Promise<Seeded>((resolve, reject) => {
    server.once('message', (message: FromServer) => {
      if (message.type === 'ready') resolve(message.seeded);
      else reject(new Error(message.type === 'failed' ? message.message : 'unexpected message'));
    });
    server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  console.log(
    `API benchmark: ${CONNECTIONS} connections, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'cpu'}), Node ${process.version}; ${seeded.jobs.length} completed jobs, audio objects of ${AUDIO_BYTES} bytes`,
  );
  try {
    // Warm both servers (JIT, connection pools) before measuring.
    await autocannon({ url: seeded.bareUrl, connections: 8, duration: 2, requests: [{ method: 'GET', path: '/bare/x' }] });
    await autocannon({
      url: seeded.apiUrl,
      connections: 8,
      duration: 2,
      requests: rotating(seeded.jobs, (token, jobId) => ({
        method: 'GET',
        path: `/api/generate/${jobId}`,
        headers: { authorization: `Bearer ${token}` },
      })),
    });

    // Bare route and polling alternate in rounds, so a drift in the machine's speed (other tenants,
    // background work) hits both alike; the ratio reported is the median of the rounds' ratios.
    const bareRounds: Figures[] = [];
    const pollRounds: Figures[] = [];
    for (let round = 1; round <= POLL_ROUNDS; round++) {
      bareRounds.push(
        await measure(server, `bare Express route, round ${round}`, {
          url: seeded.bareUrl,
          connections: CONNECTIONS,
          duration: POLL_SECONDS,
          requests: rotating(seeded.jobs, (_token, jobId) => ({ method: 'GET', path: `/bare/${jobId}` })),
        }),
      );
      pollRounds.push(
        await measure(server, `GET /api/generate/{id}, round ${round}`, {
          url: seeded.apiUrl,
          connections: CONNECTIONS,
          duration: POLL_SECONDS,
          requests: rotating(seeded.jobs, (token, jobId) => ({
            method: 'GET',
            path: `/api/generate/${jobId}`,
            headers: { authorization: `Bearer ${token}` },
          })),
        }),
      );
    }
    const bare = combine('bare Express route (same JSON)', bareRounds);
    const poll = combine('GET /api/generate/{id}', pollRounds);
    const roundRatios = pollRounds.map((round, index) =>
      Number((round.requestsPerSecond / (bareRounds[index]?.requestsPerSecond ?? Number.NaN)).toFixed(3)),
    );
    const signRequests = (jobs: ReadonlyArray<[string, string, string]>) =>
      rotating(jobs, (token, jobId, wallet) => ({
        method: 'POST',
        path: '/api/signature',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ job_id: jobId, user_address: wallet, metadata_uri: METADATA_URI }),
      }));
    // Each measured run gets jobs of its own, after a warm-up on other jobs (a job is signed once).
    let nextJob = 0;
    const takeJobs = (count: number) => seeded.jobs.slice(nextJob, (nextJob += count));
    const issue = async (name: string, url: string, count: number) => {
      const warmup = takeJobs(SIGNATURE_WARMUP);
      await autocannon({ url, connections: 8, amount: warmup.length, requests: signRequests(warmup) });
      const measured = takeJobs(count);
      return measure(server, name, { url, connections: CONNECTIONS, amount: measured.length, requests: signRequests(measured) });
    };
    const sign = await issue('POST /api/signature', seeded.apiUrl, SIGNATURES);
    const signDownload = await issue('POST /api/signature (download)', seeded.downloadApiUrl, DOWNLOAD_SIGNATURES);

    const pollRatio = median(roundRatios);
    const report: Report & { date: string; targets: Record<string, boolean> } = {
      date: new Date().toISOString(),
      // The 1-minute load average at the end: other work on the machine lowers every req/s figure.
      machine: {
        cores: availableParallelism(),
        cpu: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        loadAverage: Number((loadavg()[0] ?? 0).toFixed(2)),
      },
      settings: {
        connections: CONNECTIONS,
        databasePool: DB_POOL,
        pollSeconds: POLL_SECONDS,
        signatures: SIGNATURES,
        downloadSignatures: DOWNLOAD_SIGNATURES,
        audioBytes: AUDIO_BYTES,
      },
      results: { bare, poll, sign, signDownload },
      ceilings: { sign: ceilings(sign), signDownload: ceilings(signDownload) },
      ratios: {
        pollVsBare: Number(pollRatio.toFixed(3)),
        pollVsBareByRound: roundRatios,
        signVsBare: Number((sign.requestsPerSecond / bare.requestsPerSecond).toFixed(3)),
      },
      targets: {
        pollAtLeast40PercentOfBare: pollRatio >= 0.4,
        signatureAtLeast1000PerSecond: sign.requestsPerSecond >= 1000,
      },
    };
    console.log(
      `polling / bare: ${(pollRatio * 100).toFixed(1)}% (median of rounds: ${roundRatios.map((r) => `${(r * 100).toFixed(1)}%`).join(', ')}; target >= 40%): ${report.targets.pollAtLeast40PercentOfBare ? 'met' : 'MISSED'}`,
    );
    console.log(
      `signature issuance: ${sign.requestsPerSecond} req/s (target >= 1000): ${report.targets.signatureAtLeast1000PerSecond ? 'met' : 'MISSED'}`,
    );
    for (const [name, c] of Object.entries(report.ceilings)) {
      console.log(
        `${name}: ${c.cpuMsPerRequest} CPU ms per signature in all processes: at most ${c.allProcessesRequestsPerSecond} req/s on these ${availableParallelism()} cores; ${c.dependenciesOnlyRequestsPerSecond} req/s with an oracle costing nothing; the oracle's own CPU allows ${c.oracleOnlyRequestsPerSecond} req/s on ${availableParallelism()} cores of its own`,
      );
    }

    const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
    await mkdir(resultsDir, { recursive: true });
    await writeFile(join(resultsDir, 'api.json'), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(join(resultsDir, 'api.md'), markdown(report));
  } finally {
    server.send('stop');
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

if (process.argv.includes('--s3')) {
  serveS3().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else if (process.argv.includes('--serve')) {
  serve().catch((error: unknown) => {
    process.send?.({ type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies FromServer);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
