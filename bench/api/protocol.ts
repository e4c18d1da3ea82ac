/** What the benchmark's server process and its load generator tell each other. */

export interface Seeded {
  apiUrl: string;
  /** The same oracle with `S3_STORED_CHECKSUMS=false`: the hash check downloads the audio. */
  downloadApiUrl: string;
  bareUrl: string;
  /** [token, public job id, wallet] per completed job, users interleaved. */
  jobs: Array<[string, string, string]>;
  /** The JSON the bare route answers: a completed job's view from the real API. */
  bareBody: unknown;
}

/** Cumulative CPU milliseconds of the oracle process, the PostgreSQL server tree and s3rver. */
export interface CpuSnapshot {
  oracle: number;
  postgres: number;
  s3: number;
}

export type FromServer =
  { type: 'ready'; seeded: Seeded } | { type: 'failed'; message: string } | { type: 'cpu'; cpu: CpuSnapshot } | { type: 'profiled' };
