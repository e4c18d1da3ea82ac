/** The figures of a measured run, and how runs are combined and read. */
import { availableParallelism } from 'node:os';

export interface Figures {
  name: string;
  requestsPerSecond: number;
  /** CPU time per successful request of the server process (the oracle, or the bare route). */
  serverCpuMsPerRequest: number;
  /** CPU time per successful request of PostgreSQL (all its processes). */
  postgresCpuMsPerRequest: number;
  /** CPU time per successful request of s3rver. */
  s3CpuMsPerRequest: number;
  /** CPU time per successful request of autocannon (this process). */
  loadGeneratorCpuMsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
  /** Wall-clock seconds of the run. */
  seconds: number;
  /** Requests answered 2xx: the ones every per-request figure divides by. */
  succeeded: number;
  total: number;
  non2xx: number;
  errors: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/** Rounds of one route added up: req/s over their summed time, CPU per request weighted by requests. */
export function combine(name: string, rounds: Figures[]): Figures {
  const ok = rounds.reduce((sum, f) => sum + f.succeeded, 0);
  const seconds = rounds.reduce((sum, f) => sum + f.seconds, 0);
  const weighted = (key: 'serverCpuMsPerRequest' | 'postgresCpuMsPerRequest' | 's3CpuMsPerRequest' | 'loadGeneratorCpuMsPerRequest') =>
    Number((rounds.reduce((sum, f) => sum + f[key] * f.succeeded, 0) / Math.max(ok, 1)).toFixed(3));
  return {
    name,
    requestsPerSecond: Math.round(ok / seconds),
    serverCpuMsPerRequest: weighted('serverCpuMsPerRequest'),
    postgresCpuMsPerRequest: weighted('postgresCpuMsPerRequest'),
    s3CpuMsPerRequest: weighted('s3CpuMsPerRequest'),
    loadGeneratorCpuMsPerRequest: weighted('loadGeneratorCpuMsPerRequest'),
    p50Ms: median(rounds.map((f) => f.p50Ms)),
    p99Ms: Math.max(...rounds.map((f) => f.p99Ms)),
    seconds: Number(seconds.toFixed(3)),
    succeeded: ok,
    total: rounds.reduce((sum, f) => sum + f.total, 0),
    non2xx: rounds.reduce((sum, f) => sum + f.non2xx, 0),
    errors: rounds.reduce((sum, f) => sum + f.errors, 0),
  };
}

/**
 * What the CPU measured per signature allows on this machine's cores: for everything that ran
 * (oracle, PostgreSQL, s3rver, autocannon); for everything but the oracle, i.e. with an oracle
 * that cost nothing; and for the oracle alone on cores of its own, as when PostgreSQL and S3 are
 * services elsewhere (one oracle process per core). Derived figures (kernel time outside these
 * processes is not counted, so each is an upper bound), reported beside the measured throughput,
 * never instead of it.
 */
export function ceilings(figures: Figures) {
  const cores = availableParallelism();
  const dependencies = figures.postgresCpuMsPerRequest + figures.s3CpuMsPerRequest + figures.loadGeneratorCpuMsPerRequest;
  const all = figures.serverCpuMsPerRequest + dependencies;
  return {
    cpuMsPerRequest: Number(all.toFixed(3)),
    allProcessesRequestsPerSecond: Math.floor((cores * 1000) / all),
    dependenciesOnlyRequestsPerSecond: Math.floor((cores * 1000) / dependencies),
    oracleOnlyRequestsPerSecond: Math.floor((cores * 1000) / figures.serverCpuMsPerRequest),
  };
}
