/**
 * `npm run test:faults`: the long reliability suite (docs/operations.md). Runs the short set
 * (test/faults/short, with 5,000 fuzzed requests) and the long set (test/faults/long) with node's
 * test runner, then the soak (bench/soak.ts, SOAK_SECONDS, 600 by default), each under a hard
 * time limit, and prints the figures the tests recorded. Exit code 1 when any part fails.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const figuresDir = mkdtempSync(join(tmpdir(), 'songmint-faults-'));
const figuresFile = join(figuresDir, 'figures.jsonl');
const env = { ...process.env, FAULTS_FIGURES_FILE: figuresFile, FUZZ_REQUESTS: process.env.FUZZ_REQUESTS ?? '5000', SOAK_SECONDS: process.env.SOAK_SECONDS ?? '600' };
const testArgs = ['--conditions=songmint-source', '--import', 'tsx', '--import', './test/support/bounded-hooks.ts', '--test', '--test-concurrency=1', '--test-timeout=900000', '--test-force-exit'];

interface Part {
  name: string;
  args: string[];
  limitMs: number;
}

const parts: Part[] = [
  { name: 'fault and fuzz tests', args: [...testArgs, 'test/faults/short/*.test.ts', 'test/faults/long/*.test.ts'], limitMs: 20 * 60_000 },
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
  figures = readFileSync(figuresFile, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
} catch {
  // no figures recorded
}
rmSync(figuresDir, { recursive: true, force: true });
const named = (name: string) => figures.find((figure) => figure.name === name) ?? {};
const soak = (() => {
  try {
    return JSON.parse(readFileSync('bench/results/soak.json', 'utf8')) as { seconds: number; requests: number; errorRate: number; p50Ms: number; p99Ms: number; oracle: { settledStart: { rssMb: number; fds: number }; end: { rssMb: number; fds: number }; rssSlopeMbPerMin: number } };
  } catch {
    return undefined;
  }
})();
const faults =
  Number(named('component-faults').faultsSurvived ?? 0) +
  (named('connection-burst').connections === undefined ? 0 : 2) +
  (named('chain-faults').mintsRecorded === undefined ? 0 : 2) +
  (named('pinning-failure').refusedThenPinned === undefined ? 0 : 1) +
  (named('backup-restore').jobsRestored === undefined ? 0 : 1);
const exactly = Number(named('multi-replica').exactlyOnce ?? 0) + Number(named('postgres-kill').jobsExactlyOnce ?? 0) + figures.filter((f) => String(f.name).startsWith('worker-kill-')).length + Number(named('object-store-down').retriedThenCompleted ?? 0);
console.log('\n=== test:faults summary ===');
console.log(`faults survived        ${faults} (PostgreSQL SIGKILL, object store down x2, worker SIGKILL at 4 stages, slow clients, 1,000-connection burst, chain RPC down, reorg, pinning failure, backup/restore)`);
console.log(`requests fuzzed        ${String(named('fuzz').requests ?? 0)} over ${String(named('fuzz').operations ?? 0)} operations, 5xx: ${String(named('fuzz').responses5xx ?? 'n/a')}, statuses ${String(named('fuzz').statuses ?? '')}`);
console.log(`jobs exactly once      ${exactly} (multi-replica ${String(named('multi-replica').exactlyOnce ?? 0)} of ${String(named('multi-replica').jobs ?? 0)} in ${String(named('multi-replica').completionSeconds ?? '?')} s; one signature per job under ${String(named('multi-replica-signatures').concurrentAsksPerJob ?? '?')} concurrent asks)`);
if (soak !== undefined) {
  console.log(`soak                   ${soak.seconds} s, ${soak.requests} requests, error rate ${(soak.errorRate * 100).toFixed(2)}%, p50 ${soak.p50Ms} ms, p99 ${soak.p99Ms} ms`);
  console.log(`soak memory            RSS ${soak.oracle.settledStart.rssMb.toFixed(0)} -> ${soak.oracle.end.rssMb.toFixed(0)} MB (slope ${soak.oracle.rssSlopeMbPerMin} MB/min), fds ${soak.oracle.settledStart.fds} -> ${soak.oracle.end.fds} (bench/results/soak.md)`);
}
for (const [name, ok] of outcomes) console.log(`${ok ? 'passed' : 'FAILED'}                 ${name}`);
process.exit(outcomes.every(([, ok]) => ok) ? 0 : 1);
