/**
 * Soak (issue 12, item 4): a bounded run at a steady mixed load against a real oracle process and
 * a real worker (sign-in, generate, poll, metadata, signature: one song's whole path per cycle,
 * SOAK_CLIENTS cycles at a time, at most one a second each, by 80 signed-in users and a fresh
 * wallet every tenth cycle), reporting p50/p99 per
 * request kind, the error rate, and the oracle's RSS and open file descriptors (/proc/<pid>) at
 * the start and the end into bench/results/soak.md and soak.json.
 *
 * It fails (exit 1) when memory or descriptors grow without bound: the end against the settled
 * start (the first sample after a fifth of the run) must stay under SOAK_MAX_GROWTH, and, in runs
 * of 5 minutes or more, the least-squares slope of RSS over the second half of the run under
 * SOAK_MAX_RSS_SLOPE_MB_PER_MIN.
 * No timing is asserted.
 *
 *   SOAK_SECONDS=600 npx tsx bench/soak.ts       (npm run test:faults runs 600 s)
 */
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FaultCluster, HttpResult, OracleReplica, Session } from '../test/faults/support/cluster.ts';
import { ROOT, httpRequest, startFaultCluster } from '../test/faults/support/cluster.ts';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 4);
const CYCLE_MS = Number(process.env.SOAK_CYCLE_MS ?? 1000);
const POOL_USERS = 80;
const SAMPLE_MS = Number(process.env.SOAK_SAMPLE_MS ?? 5000);
const MAX_GROWTH = Number(process.env.SOAK_MAX_GROWTH ?? 1.5);
const MAX_RSS_SLOPE_MB_PER_MIN = Number(process.env.SOAK_MAX_RSS_SLOPE_MB_PER_MIN ?? 8);
/** Shorter runs report the slope without judging it (warm-up dominates them). */
const SLOPE_MIN_SECONDS = 300;
/** Descriptors come and go with pooled connections: growth is judged with this much slack. */
const FD_SLACK = 20;

interface Sample {
  seconds: number;
  rssMb: number;
  fds: number;
}

async function sample(pid: number, since: number): Promise<Sample> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const fds = (await readdir(`/proc/${pid}/fd`)).length;
  return { seconds: (Date.now() - since) / 1000, rssMb: rssKb / 1024, fds };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

type Kind = 'sign-in' | 'generate' | 'poll' | 'metadata' | 'signature';

async function main(): Promise<void> {
  const cluster: FaultCluster = await startFaultCluster();
  let failed = false;
  try {
    await cluster.startWorker();
    const oracle = cluster.oracles[0] as OracleReplica;
    const pid = oracle.child.pid;
    if (pid === undefined) throw new Error('no oracle pid');
    const latencies = new Map<Kind, number[]>();
    let requests = 0;
    let errors = 0;
    let songs = 0;
    const errorSamples: string[] = [];
    const timed = async (kind: Kind, call: () => Promise<HttpResult>, expected: number): Promise<HttpResult | undefined> => {
      const start = performance.now();
      requests++;
      try {
        const response = await call();
        const list = latencies.get(kind) ?? [];
        list.push(performance.now() - start);
        latencies.set(kind, list);
        if (response.status !== expected) {
          errors++;
          if (errorSamples.length < 10) errorSamples.push(`${kind} ${response.status} ${response.text.slice(0, 200)}`);
          return undefined;
        }
        return response;
      } catch (error) {
        errors++;
        if (errorSamples.length < 10) errorSamples.push(`${kind} ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }
    };
    const since = Date.now();
    const deadline = since + SECONDS * 1000;
    const samples: Sample[] = [await sample(pid, since)];
    const sampler = setInterval(() => {
      sample(pid, since).then(
        (s) => samples.push(s),
        () => undefined,
      );
    }, SAMPLE_MS);

    // Sign-in is limited per IP (1,000 an hour) and metadata + signature per user (100 an hour):
    // a pool of signed-in users carries most cycles, and every tenth cycle signs in a new wallet.
    const pool: Session[] = [];
    for (let i = 0; i < POOL_USERS; i++) pool.push(await cluster.login(oracle, { tier: 'pro' }));
    let cycles = 0;
    const cycle = async (): Promise<void> => {
      const start = performance.now();
      const n = cycles++;
      let session: Session | undefined = pool[n % pool.length];
      if (n % 10 === 0 || session === undefined) {
        try {
          session = await cluster.login(oracle, { tier: 'pro' });
        } catch (error) {
          requests += 2;
          errors++;
          if (errorSamples.length < 10) errorSamples.push(`sign-in ${error instanceof Error ? error.message : String(error)}`);
          return;
        }
        requests += 2;
        latencies.set('sign-in', [...(latencies.get('sign-in') ?? []), performance.now() - start]);
      }
      const signedIn = session;
      const created = await timed(
        'generate',
        () => httpRequest(`${oracle.url}/api/generate`, { token: signedIn.token, body: { prompt: 'soak song, steady beat', duration: 5 } }),
        202,
      );
      if (created === undefined) return;
      const jobId = (created.body as { job_id: string }).job_id;
      let audioUrl: string | undefined;
      for (let i = 0; i < 600 && audioUrl === undefined && Date.now() < deadline + 60_000; i++) {
        const status = await timed('poll', () => httpRequest(`${oracle.url}/api/generate/${jobId}`, { token: signedIn.token }), 200);
        const body = status?.body as { status?: string; audio_url?: string } | undefined;
        if (body?.status === 'completed') audioUrl = body.audio_url;
        else if (body?.status === 'failed') return;
        else await new Promise((resolve) => setTimeout(resolve, 250));
      }
      if (audioUrl === undefined) return;
      const metadata = await timed(
        'metadata',
        () =>
          httpRequest(`${oracle.url}/api/metadata`, {
            token: signedIn.token,
            body: { name: 'Soak', description: 'soak run', audio_url: audioUrl },
          }),
        201,
      );
      if (metadata === undefined) return;
      const uri = (metadata.body as { metadata_uri: string }).metadata_uri;
      const signed = await timed(
        'signature',
        () =>
          httpRequest(`${oracle.url}/api/signature`, {
            token: signedIn.token,
            body: { job_id: jobId, user_address: signedIn.address, metadata_uri: uri },
          }),
        200,
      );
      if (signed !== undefined) songs++;
    };
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (Date.now() < deadline) {
          const began = Date.now();
          await cycle();
          // A steady load: at most one cycle per client per CYCLE_MS.
          const rest = CYCLE_MS - (Date.now() - began);
          if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
        }
      }),
    );
    clearInterval(sampler);
    samples.push(await sample(pid, since));

    const settleAt = SECONDS / 5;
    const settled = samples.filter((s) => s.seconds >= settleAt);
    const start = settled[0] ?? samples[0];
    const end = samples[samples.length - 1];
    if (start === undefined || end === undefined) throw new Error('no samples');
    const rssGrowth = end.rssMb / start.rssMb;
    const fdGrowth = end.fds / (start.fds + FD_SLACK);
    // Over the second half: the first minutes hold V8's heap growing to its working size.
    const rssSlope = slope(settled.filter((s) => s.seconds >= SECONDS / 2).map((s) => [s.seconds / 60, s.rssMb]));
    const byKind = Object.fromEntries(
      [...latencies.entries()].map(([kind, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return [
          kind,
          {
            count: sorted.length,
            p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
            p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
          },
        ];
      }),
    );
    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const result = {
      when: new Date().toISOString(),
      seconds: SECONDS,
      clients: CLIENTS,
      requests,
      songs,
      errors,
      errorRate: requests === 0 ? 0 : errors / requests,
      p50Ms: Math.round(percentile(all, 50) * 10) / 10,
      p99Ms: Math.round(percentile(all, 99) * 10) / 10,
      byKind,
      oracle: {
        first: samples[0],
        settledStart: start,
        end,
        rssGrowth: Math.round(rssGrowth * 1000) / 1000,
        fdGrowth: Math.round(fdGrowth * 1000) / 1000,
        rssSlopeMbPerMin: Math.round(rssSlope * 100) / 100,
      },
      bounds: { maxGrowth: MAX_GROWTH, maxRssSlopeMbPerMin: MAX_RSS_SLOPE_MB_PER_MIN, fdSlack: FD_SLACK },
      errorSamples,
      samples,
    };
    const problems: string[] = [];
    if (rssGrowth > MAX_GROWTH) problems.push(`RSS grew ${rssGrowth.toFixed(2)}x from the settled start (bound ${MAX_GROWTH}x)`);
    if (fdGrowth > MAX_GROWTH) problems.push(`descriptors grew from ${start.fds} to ${end.fds} (bound ${MAX_GROWTH}x + ${FD_SLACK})`);
    if (SECONDS >= SLOPE_MIN_SECONDS && rssSlope > MAX_RSS_SLOPE_MB_PER_MIN)
      problems.push(`RSS rises ${rssSlope.toFixed(2)} MB/min over the settled run (bound ${MAX_RSS_SLOPE_MB_PER_MIN})`);
    if (songs === 0) problems.push('no song went the whole way');
    const dir = join(ROOT, 'bench', 'results');
    await mkdir(dir, { recursive: true });
    const { samples: _samples, ...summary } = result;
    await writeFile(join(dir, 'soak.json'), `${JSON.stringify(result, null, 2)}\n`);
    const lines = [
      '# Soak: steady mixed load on one oracle process and one worker',
      '',
      `Run ${result.when}: ${SECONDS} s, ${CLIENTS} concurrent clients, each cycle (at most one per client per second) generate (5 s) → poll → metadata → signature by one of 80 signed-in users, with a fresh SIWE sign-in every tenth cycle (\`npx tsx bench/soak.ts\`, SOAK_SECONDS). Real PostgreSQL, S3 and processes on loopback; the machine is shared (2 cores), so latencies are indicative only.`,
      '',
      `| requests | songs | errors | error rate | p50 ms | p99 ms |`,
      `|---|---|---|---|---|---|`,
      `| ${requests} | ${songs} | ${errors} | ${(result.errorRate * 100).toFixed(2)}% | ${result.p50Ms} | ${result.p99Ms} |`,
      '',
      '| request | count | p50 ms | p99 ms |',
      '|---|---|---|---|',
      ...Object.entries(byKind).map(([kind, figures]) => `| ${kind} | ${figures.count} | ${figures.p50Ms} | ${figures.p99Ms} |`),
      '',
      '| oracle process | RSS MB | open fds |',
      '|---|---|---|',
      `| first sample (0 s) | ${samples[0]?.rssMb.toFixed(1) ?? '?'} | ${samples[0]?.fds ?? '?'} |`,
      `| settled start (${start.seconds.toFixed(0)} s, the baseline) | ${start.rssMb.toFixed(1)} | ${start.fds} |`,
      `| end (${end.seconds.toFixed(0)} s) | ${end.rssMb.toFixed(1)} | ${end.fds} |`,
      '',
      `RSS end/settled-start ${rssGrowth.toFixed(3)} (bound ${MAX_GROWTH}), slope over the second half ${rssSlope.toFixed(2)} MB/min (bound ${MAX_RSS_SLOPE_MB_PER_MIN}${SECONDS >= SLOPE_MIN_SECONDS ? '' : ', not judged under 300 s'}); descriptors end/(start+${FD_SLACK}) ${fdGrowth.toFixed(3)} (bound ${MAX_GROWTH}). ${problems.length === 0 ? 'Within bounds.' : `OUT OF BOUNDS: ${problems.join('; ')}`}`,
      '',
    ];
    await writeFile(join(dir, 'soak.md'), lines.join('\n'));
    console.log(JSON.stringify(summary, null, 2));
    console.log(
      `figure ${JSON.stringify({ name: 'soak', seconds: SECONDS, requests, errorRate: result.errorRate, p50Ms: result.p50Ms, p99Ms: result.p99Ms, rssStartMb: Math.round(start.rssMb), rssEndMb: Math.round(end.rssMb), fdsStart: start.fds, fdsEnd: end.fds, rssSlopeMbPerMin: result.oracle.rssSlopeMbPerMin })}`,
    );
    if (problems.length > 0) {
      console.error(`soak out of bounds:\n  ${problems.join('\n  ')}`);
      failed = true;
    }
  } finally {
    await cluster.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
