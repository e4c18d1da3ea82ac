/** autocannon, typed for the options and results the benchmark uses, and a rotating request source. */
import { createRequire } from 'node:module';

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
}

export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  pipelining?: number;
  duration?: number;
  amount?: number;
  requests?: AutocannonRequest[];
}

interface Autocannon {
  (options: AutocannonOptions): Promise<AutocannonResult>;
  /** With a callback it returns the running instance, which emits `response` per response. */
  (
    options: AutocannonOptions,
    done: (error: Error | null, result: AutocannonResult) => void,
  ): { on(event: 'response', listener: () => void): void };
}

// autocannon ships no type declarations; the options and result fields used are typed above.
export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** One request per job in turn: `build` makes the request for a job's token, id and wallet. */
export function rotating(
  jobs: ReadonlyArray<[string, string, string]>,
  build: (token: string, jobId: string, wallet: string) => AutocannonRequest,
): AutocannonRequest[] {
  let next = 0;
  return [
    {
      setupRequest: (request) => {
        const job = jobs[next % jobs.length];
        next++;
        if (job === undefined) return request;
        return { ...request, ...build(job[0], job[1], job[2]) };
      },
    },
  ];
}
