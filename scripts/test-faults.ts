/**
 * `npm run test:faults`: the long reliability suite (docs/operations.md). Runs the short set and
 * the long set (test/faults/short, test/faults/long) with node's test runner, then the fuzz test
 * at 50,000 requests (FUZZ_REQUESTS; its seed printed, FUZZ_SEED replays it), then the soak
 * (bench/soak.ts, SOAK_SECONDS, 600 by default), each under a hard time limit, and prints the
 * figures the tests recorded. Exit code 1 when any part fails.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const figuresDir = mkdtempSync(join(tmpdir(), 'songmint-faults-'));
const figuresFile = join(figuresDir, 'figures.jsonl');
const env = {
  ...process.env,
  FAULTS_FIGURES_FILE: figuresFile,
  FUZZ_REQUESTS: process.env.FUZZ_REQUESTS ?? '50000',
  SOAK_SECONDS: process.env.SOAK_SECONDS ?? '600',
  // A long case's setup starts a whole cluster (PostgreSQL, S3, replicas, up to three workers each
  // loading its model) one process after another: on a loaded 2-core machine that outlasts the
  // 120 s bound of test/support/bounded-hooks.ts, which is there to catch a hang, not to time.
  SONGMINT_TEST_HOOK_TIMEOUT_MS: process.env.SONGMINT_TEST_HOOK_TIMEOUT_MS ?? '300000',
  // node's --test-timeout below bounds each file's process as a whole: a test awaiting a lost
  // promise cancels its file unnamed, its `after` hooks never run. Each test gets its own bound
  // under it (test/support/bounded-hooks.ts), as `npm test`'s do (scripts/test-services.ts).
  SONGMINT_TEST_TIMEOUT_MS: process.env.SONGMINT_TEST_TIMEOUT_MS ?? '840000',
};
const testArgs = [
  '--conditions=songmint-source',
  '--import',
  'tsx',
  '--import',
  './test/support/bounded-hooks.ts',
  '--test',
  '--test-concurrency=1',
  '--test-timeout=900000',
  '--test-force-exit',
];

interface Part {
  name: string;
  args: string[];
  limitMs: number;
}

const FUZZ_TEST = 'test/faults/short/fuzz.test.ts';
const faultTests = ['test/faults/short', 'test/faults/long'].flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${dir}/${name}`)
    .filter((path) => path !== FUZZ_TEST),
);
/** What one fuzzed request may take on a loaded machine, its database snapshots included. */
const FUZZ_MS_PER_REQUEST = 60;

const parts: Part[] = [
  { name: 'fault tests', args: [...testArgs, ...faultTests], limitMs: 30 * 60_000 },
  { name: 'fuzz', args: [...testArgs, FUZZ_TEST], limitMs: 10 * 60_000 + Number(env.FUZZ_REQUESTS) * FUZZ_MS_PER_REQUEST },
  { name: 'soak', args: ['--import', 'tsx', 'bench/soak.ts'], limitMs: (Number(env.SOAK_SECONDS) + 180) * 1000 },
];

function run(part: Part): Promise<boolean> {
  return new Promise((resolve) => {
    console.log(`\n=== ${part.name} ===`);
    const child = spawn(process.execPath, part.args, { env, stdio: 'inherit' });
    const timer = setTimeout(() => {
      console.error(`${part.name} ran past ${part.limitMs / 1000} s: stopped`);
      child.kill('SIGKILL');
    }, part.limitMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

const outcomes: Array<[string, boolean]> = [];
for (const part of parts) outcomes.push([part.name, await run(part)]);

let figures: Array<Record<string, unknown>> = [];
try {
  figures = readFileSync(figuresFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
} catch {
  // no figures recorded
}
rmSync(figuresDir, { recursive: true, force: true });
const named = (name: string) => figures.find((figure) => figure.name === name) ?? {};
const soak = (() => {
  try {
    return JSON.parse(readFileSync('bench/results/soak.json', 'utf8')) as {
      seconds: number;
      requests: number;
      errorRate: number;
      p50Ms: number;
      p99Ms: number;
      oracle: { settledStart: { rssMb: number; fds: number }; end: { rssMb: number; fds: number }; rssSlopeMbPerMin: number };
    };
  } catch {
    return undefined;
  }
})();
const blackholeLoad = named('postgres-blackhole-load');
const blackholeShort = named('postgres-blackhole-short');
const storeBlackhole = named('object-store-blackhole');
const skew = named('clock-skew');
const diskFull = named('disk-full');
const skewedWindow = named('clock-skew-rate-limit');
const faults =
  Number(named('component-faults').faultsSurvived ?? 0) +
  (named('connection-burst').connections === undefined ? 0 : 2) +
  (named('chain-faults').mintsRecorded === undefined ? 0 : 2) +
  (named('pinning-failure').refusedThenPinned === undefined ? 0 : 1) +
  (named('backup-restore').jobsRestored === undefined ? 0 : 1) +
  ['postgres-blackhole-short', 'postgres-blackhole-load', 'postgres-blackhole-startup', 'object-store-blackhole', 'clock-skew'].filter(
    (name) => named(name).name !== undefined,
  ).length +
  (named('chain-faults').rpcSilentGivenUpAfterMs === undefined ? 0 : 1) +
  Number(diskFull.faultsSurvived ?? 0);
const exactly =
  Number(blackholeShort.jobsExactlyOnce ?? 0) +
  Number(blackholeLoad.jobsExactlyOnce ?? 0) +
  Number(storeBlackhole.retriedThenCompleted ?? 0) +
  Number(named('multi-replica').exactlyOnce ?? 0) +
  Number(named('postgres-kill').jobsExactlyOnce ?? 0) +
  figures.filter((f) => String(f.name).startsWith('worker-kill-')).length +
  Number(named('object-store-down').retriedThenCompleted ?? 0) +
  Number(diskFull.jobsExactlyOnce ?? 0) +
  Number(diskFull.panicJobsExactlyOnce ?? 0);
console.log('\n=== test:faults summary ===');
console.log(
  `faults survived        ${faults} (PostgreSQL SIGKILL, object store down x2, worker SIGKILL at 4 stages, slow clients, 1,000-connection burst, chain RPC down, reorg, pinning failure, backup/restore, PostgreSQL blackholed x3, object store blackholed, RPC blackholed, clock skew, disk full x2)`,
);
console.log(
  `blackholes             PostgreSQL: ${String(blackholeLoad.requests ?? '?')} requests under load, ${String(blackholeLoad.answered503 ?? '?')} answered 503, slowest ${String(blackholeLoad.slowestMs ?? '?')} ms (short test ${String(blackholeShort.slowestMs ?? '?')} ms) of a ${String(blackholeLoad.deadlineMs ?? blackholeShort.deadlineMs ?? '?')} ms deadline, a worker starting against it exited after ${String(named('postgres-blackhole-startup').workerGaveUpAfterMs ?? '?')} ms; object store: upload abandoned after ${String(storeBlackhole.abandonedAfterMs ?? '?')} ms; RPC: watcher and pool indexer calls given up after ${String(named('chain-faults').rpcSilentGivenUpAfterMs ?? '?')} ms, ${String(named('chain-faults').poolEventsRecordedOnceAfterSilence ?? '?')} pool events recorded once after healing`,
);
console.log(
  `disk full              ${String(diskFull.requestsWhileFull ?? '?')} requests while full, ${String(diskFull.answered503WhileFull ?? '?')} answered 503 (first after ${String(diskFull.firstRefusalAfterMs ?? '?')} ms), slowest ${String(diskFull.slowestMs ?? '?')} ms; ${String(diskFull.jobsExactlyOnce ?? '?')} jobs exactly once, ${String(diskFull.objectsVerified ?? '?')} objects and ${String(diskFull.metadataVerified ?? '?')} metadata rows verified; WAL PANIC: PostgreSQL back ${String(diskFull.postgresBackAfterFreeMs ?? '?')} ms after space was freed`,
);
console.log(
  `clock skew             ${String(skew.skewMinutes ?? '?')} min ahead: leases taken over ${String(skew.leasesTakenOver ?? '?')}, fresh previews expired ${String(skew.freshPreviewsExpired ?? '?')}, foreign nonces accepted ${String(skew.foreignNoncesAccepted ?? '?')}; a replica ${String(skewedWindow.skewMinutes ?? '?')} min ahead (in the next hour) charged ${String(skewedWindow.windowsCharged ?? '?')} window, over the limit ${String(skewedWindow.overLimit ?? '?')}`,
);
console.log(
  `fuzz seed              ${String(named('fuzz').seed ?? '?')} (replay: FUZZ_SEED=${String(named('fuzz').seed ?? '?')} FUZZ_REQUESTS=${env.FUZZ_REQUESTS})`,
);
console.log(
  `requests fuzzed        ${String(named('fuzz').requests ?? 0)} over ${String(named('fuzz').operations ?? 0)} operations, 5xx: ${String(named('fuzz').responses5xx ?? 'n/a')}, statuses ${String(named('fuzz').statuses ?? '')}`,
);
console.log(
  `jobs exactly once      ${exactly} (multi-replica ${String(named('multi-replica').exactlyOnce ?? 0)} of ${String(named('multi-replica').jobs ?? 0)} in ${String(named('multi-replica').completionSeconds ?? '?')} s; one signature per job under ${String(named('multi-replica-signatures').concurrentAsksPerJob ?? '?')} concurrent asks)`,
);
if (soak !== undefined) {
  console.log(
    `soak                   ${soak.seconds} s, ${soak.requests} requests, error rate ${(soak.errorRate * 100).toFixed(2)}%, p50 ${soak.p50Ms} ms, p99 ${soak.p99Ms} ms`,
  );
  console.log(
    `soak memory            RSS ${soak.oracle.settledStart.rssMb.toFixed(0)} -> ${soak.oracle.end.rssMb.toFixed(0)} MB (slope ${soak.oracle.rssSlopeMbPerMin} MB/min), fds ${soak.oracle.settledStart.fds} -> ${soak.oracle.end.fds} (bench/results/soak.md)`,
  );
}
for (const [name, ok] of outcomes) console.log(`${ok ? 'passed' : 'FAILED'}                 ${name}`);
process.exit(outcomes.every(([, ok]) => ok) ? 0 : 1);
