/**
 * `npm run test:repeat -- N [--load RUNS] [--stall-minutes M] [--keep]`
 *
 * Runs the README's commands (`npm install`, then `npm test`) N times, each on a fresh clone of
 * this repository's HEAD in a new folder only its owner can enter (as `mktemp -d` and a
 * container's /root are), and reports how many runs passed, failed or stalled, with their
 * durations. A run still going after M minutes (default 30) counts as stalled and is killed
 * with its whole process group. `--load 2,4` runs a CPU-heavy process (one busy core hashing
 * without pause) beside runs 2 and 4, as a benchmark would. Uncommitted changes are not in the
 * clones: commit first. Figures go to stdout and bench/results/test-repeat.{json,md}.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const RESULTS = join(ROOT, 'bench', 'results');

interface Options {
  runs: number;
  loadRuns: ReadonlySet<number>;
  stallMs: number;
  keep: boolean;
}

type Outcome = 'pass' | 'fail' | 'stall';

interface RunReport {
  run: number;
  outcome: Outcome;
  /** The step that failed or stalled. */
  step: 'clone' | 'install' | 'test' | null;
  load: boolean;
  installSeconds: number | null;
  testSeconds: number | null;
  /** node:test and mocha totals read from the output, when found. */
  tests: string | null;
  log: string;
}

function parseOptions(argv: readonly string[]): Options {
  let runs = 5;
  let stallMinutes = 30;
  const loadRuns = new Set<number>();
  let keep = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--load') {
      for (const part of (argv[++i] ?? '').split(',')) if (part !== '') loadRuns.add(Number(part));
    } else if (arg === '--stall-minutes') {
      stallMinutes = Number(argv[++i]);
    } else if (arg === '--keep') {
      keep = true;
    } else if (/^\d+$/.test(arg)) {
      runs = Number(arg);
    } else {
      throw new Error(`unknown argument ${arg}\nusage: npm run test:repeat -- N [--load 1,3] [--stall-minutes 30] [--keep]`);
    }
  }
  if (!(runs >= 1) || !(stallMinutes > 0) || [...loadRuns].some((run) => !Number.isInteger(run) || run < 1 || run > runs)) {
    throw new Error('N and --stall-minutes must be positive; --load names runs between 1 and N');
  }
  return { runs, loadRuns, stallMs: stallMinutes * 60_000, keep };
}

/** Runs a command in its own process group; kills the group at `deadline`. */
function runStep(
  command: string,
  args: readonly string[],
  cwd: string,
  deadline: number,
  log: (text: string) => void,
): Promise<{ outcome: Outcome; seconds: number; output: string }> {
  const started = Date.now();
  return new Promise((done) => {
    const child: ChildProcess = spawn(command, args, {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: 'true' },
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      log(text);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    let stalled = false;
    const timer = setTimeout(
      () => {
        stalled = true;
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      },
      Math.max(0, deadline - Date.now()),
    );
    child.once('close', (code) => {
      clearTimeout(timer);
      done({ outcome: stalled ? 'stall' : code === 0 ? 'pass' : 'fail', seconds: (Date.now() - started) / 1000, output });
    });
  });
}

/** One core kept busy (SHA-256 in a loop) until stopped. */
function startCpuLoad(): ChildProcess {
  return spawn(
    process.execPath,
    [
      '-e',
      "const c=require('node:crypto');let b=Buffer.alloc(1<<20);for(;;){b=c.createHash('sha256').update(b).digest();b=Buffer.concat([b,Buffer.alloc((1<<20)-32)])}",
    ],
    { stdio: 'ignore' },
  );
}

function testTotals(output: string): string | null {
  const mocha = /(\d+) passing/.exec(output)?.[1];
  const pass = /# pass (\d+)/.exec(output)?.[1];
  const fail = /# fail (\d+)/.exec(output)?.[1];
  if (mocha === undefined && pass === undefined) return null;
  return `hardhat ${mocha ?? '?'} passing; node:test ${pass ?? '?'} pass / ${fail ?? '?'} fail`;
}

async function oneRun(run: number, options: Options): Promise<RunReport> {
  const folder = await mkdtemp(join(tmpdir(), 'songmint-repeat-'));
  await chmod(folder, 0o700);
  const clone = join(folder, 'songmint');
  const logPath = join(folder, 'run.log');
  let logText = '';
  const log = (text: string) => {
    logText += text;
  };
  const deadline = Date.now() + options.stallMs;
  const load = options.loadRuns.has(run) ? startCpuLoad() : undefined;
  const report: RunReport = {
    run,
    outcome: 'pass',
    step: null,
    load: load !== undefined,
    installSeconds: null,
    testSeconds: null,
    tests: null,
    log: logPath,
  };
  try {
    const cloned = await runStep('git', ['clone', '--quiet', ROOT, clone], folder, deadline, log);
    if (cloned.outcome !== 'pass') return { ...report, outcome: cloned.outcome, step: 'clone' };
    const install = await runStep('npm', ['install', '--no-audit', '--no-fund'], clone, deadline, log);
    report.installSeconds = install.seconds;
    if (install.outcome !== 'pass') return { ...report, outcome: install.outcome, step: 'install' };
    const test = await runStep('npm', ['test'], clone, deadline, log);
    report.testSeconds = test.seconds;
    report.tests = testTotals(test.output);
    return test.outcome === 'pass' ? report : { ...report, outcome: test.outcome, step: 'test' };
  } finally {
    load?.kill('SIGKILL');
    await writeFile(logPath, logText);
    // The clone (with its node_modules) is large; the log is what a failure needs.
    if (!options.keep) await rm(clone, { recursive: true, force: true });
  }
}

function table(reports: readonly RunReport[]): string {
  const rows = reports.map(
    (r) =>
      `| ${r.run} | ${r.outcome}${r.step === null ? '' : ` (${r.step})`} | ${r.load ? 'yes' : 'no'} | ${r.installSeconds?.toFixed(0) ?? '-'} | ${r.testSeconds?.toFixed(0) ?? '-'} | ${r.tests ?? '-'} |`,
  );
  return ['| run | outcome | CPU load beside | install s | test s | tests |', '|---:|---|---|---:|---:|---|', ...rows].join('\n');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const reports: RunReport[] = [];
  for (let run = 1; run <= options.runs; run++) {
    console.log(`run ${run}/${options.runs}${options.loadRuns.has(run) ? ' (beside a CPU-heavy process)' : ''} ...`);
    const report = await oneRun(run, options);
    reports.push(report);
    console.log(
      `run ${run}: ${report.outcome}${report.step === null ? '' : ` at ${report.step}`}, install ${report.installSeconds?.toFixed(0) ?? '-'} s, test ${report.testSeconds?.toFixed(0) ?? '-'} s; log ${report.log}`,
    );
  }
  const count = (outcome: Outcome) => reports.filter((r) => r.outcome === outcome).length;
  const summary = `${count('pass')} passed, ${count('fail')} failed, ${count('stall')} stalled of ${reports.length}`;
  const markdown = `# npm test on fresh clones (scripts/test-repeat.ts)\n\n${new Date().toISOString()}, stall limit ${options.stallMs / 60_000} min per run.\n\n${summary}\n\n${table(reports)}\n`;
  console.log(`\n${markdown}`);
  await writeFile(join(RESULTS, 'test-repeat.json'), `${JSON.stringify({ date: new Date().toISOString(), summary, reports }, null, 2)}\n`);
  await writeFile(join(RESULTS, 'test-repeat.md'), markdown);
  if (count('pass') !== reports.length) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
