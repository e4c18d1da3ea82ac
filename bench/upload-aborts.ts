/**
 * The disconnect attack of issue 49 against the oracle's upload route (`npm run bench:upload-aborts`):
 * test/e2e/support/upload-abort-check.ts run against an oracle started in this process over real
 * PostgreSQL and s3rver, its uploads configured as oracle/src/main.ts configures them (decode
 * threads for this host's cores, the default in-flight limits). One free account sends 16 FLACs of
 * 69 MB (one-sample frames, the slowest to decode per byte) and leaves as each body is out;
 * another uploads a 1 s WAV again and again meanwhile. Figures: this process's RSS growth over
 * the attack (the oracle's, plus the attacker's one 69 MB body, made before the baseline), and
 * the other account's upload latency against its latency with no attack, in the same run.
 * Writes bench/results/upload-aborts.{json,md}. With `-- --npm-start` the same attack goes to the
 * stack `npm start` runs (its oracle process measured), writing upload-aborts-npm-start.{json,md}.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAudioProber, decodeThreadsFor } from '../core/src/audio/audio-prober.ts';
import { createObjectStore } from '../core/src/object-store.ts';
import { startTestS3, testObjectStoreOptions } from '../core/src/testing/s3.ts';
import { createUploadsInFlight, DEFAULT_UPLOADS_IN_FLIGHT } from '../oracle/src/domain/uploads-in-flight.ts';
import { ABORTS, RSS_GROWTH_BOUND_MB, checkAbortedUploads } from '../test/e2e/support/upload-abort-check.ts';
import { startTestApp } from '../test/oracle/helpers/test-app.ts';
import { signInFresh } from '../test/e2e/support/upload-bombs-check.ts';
import { startNpmStack } from '../test/support/npm-start.ts';

/** Where the attack goes: an oracle in this process, or (`--npm-start`) the stack `npm start` runs, as the issue replays it. */
interface Target {
  baseUrl: string;
  /** The process whose resident memory is the oracle's. */
  pid: number;
  tokens: { attacker: string; victim: string };
  describe: string;
  decodeThreads: number | null;
  stop(): Promise<void>;
}

async function inProcessOracle(): Promise<Target> {
  const s3 = await startTestS3();
  const objectStore = createObjectStore(testObjectStoreOptions(s3, 'https://cdn.songmint.test'));
  const threads = Math.max(2, Math.min(DEFAULT_UPLOADS_IN_FLIGHT.perProcess, decodeThreadsFor(availableParallelism())));
  const prober = createAudioProber({ threads, perAccount: DEFAULT_UPLOADS_IN_FLIGHT.perUser });
  const app = await startTestApp({ services: () => ({ uploads: { objectStore, prober, inFlight: createUploadsInFlight() } }) });
  const [attacker, victim] = [await app.login(), await app.login()];
  return {
    baseUrl: app.baseUrl,
    pid: process.pid,
    tokens: { attacker: attacker.token, victim: victim.token },
    describe:
      "The process measured is the bench's own, which runs the oracle in-process: its RSS holds the\nattacker's one body as well (made before the baseline).",
    decodeThreads: threads,
    stop: async () => {
      await app.stop();
      await prober.close();
      await s3.stop();
    },
  };
}

async function npmStartStack(): Promise<Target> {
  const stack = await startNpmStack({ timeoutMs: 300_000 });
  const pid = stack.process.pid;
  if (pid === undefined) throw new Error('npm start has no pid');
  return {
    baseUrl: stack.baseUrl,
    pid,
    // Two fresh wallets signed in through the SDK: free accounts, as an attacker's would be.
    tokens: { attacker: await signInFresh(stack.baseUrl), victim: await signInFresh(stack.baseUrl) },
    describe:
      "The process measured is `npm start`'s (scripts/dev-stack.ts runs the oracle in-process, with its\nembedded PostgreSQL, S3 and chain in their own processes), started with its defaults as the README says.",
    decodeThreads: null,
    stop: () => stack.remove(),
  };
}

const againstNpmStart = process.argv.includes('--npm-start');
const target = againstNpmStart ? await npmStartStack() : await inProcessOracle();
try {
  const report = await checkAbortedUploads(target.baseUrl, target.pid, target.tokens);
  const host = {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    decodeThreads: target.decodeThreads,
  };
  const results = fileURLToPath(new URL('./results/', import.meta.url));
  const name = againstNpmStart ? 'upload-aborts-npm-start' : 'upload-aborts';
  await mkdir(results, { recursive: true });
  await writeFile(
    join(results, `${name}.json`),
    `${JSON.stringify({ target: againstNpmStart ? 'npm start' : 'in-process', host, ...report }, null, 2)}\n`,
  );
  const growth = report.peakMb - report.baselineMb;
  const markdown = `# Aborted uploads (issue 49)${againstNpmStart ? ', against `npm start`' : ''}

\`npm run bench:upload-aborts${againstNpmStart ? ' -- --npm-start' : ''}\` (bench/upload-aborts.ts): ${ABORTS} FLACs of ${(report.attackBytes / 1e6).toFixed(1)} MB of one-sample frames
from one free account, each connection closed once its body is out, two at a time; meanwhile
another account uploads a 1 s WAV again and again. Host: ${host.cores} cores (${host.cpu}), Node ${host.node}${target.decodeThreads === null ? '' : `, ${target.decodeThreads} decode threads`}.

| Figure | Value |
|---|---|
| RSS before the attack | ${Math.round(report.baselineMb)} MB |
| RSS peak during it | ${Math.round(report.peakMb)} MB |
| Growth (bound ${RSS_GROWTH_BOUND_MB} MB; before issue 49: +1,589 MB over 24) | ${Math.round(growth)} MB |
| Aborted uploads refused before their body (in-flight limit) | ${report.refusedBeforeBody} |
| The other account's uploads during the attack | ${report.victimUploads} |
| Their median latency | ${Math.round(report.victimMedianMs)} ms (${(report.victimMedianMs / report.quietMs).toFixed(1)}x the quiet ${Math.round(report.quietMs)} ms) |
| Their worst latency (before issue 49: 204 s) | ${Math.round(report.victimWorstMs)} ms (${(report.victimWorstMs / report.quietMs).toFixed(1)}x) |

${target.describe} Each abort cancels its decode, queued or
running (core/src/audio/audio-prober.ts), and the account's slots are held until that decode has
answered (oracle/src/domain/uploads-in-flight.ts), so at most two of its bodies are in memory at
once; the other account's uploads are served in turn on a thread the attacker cannot hold.
`;
  await writeFile(join(results, `${name}.md`), markdown);
  console.log(markdown);
} finally {
  await target.stop();
}
