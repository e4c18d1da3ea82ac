/**
 * Where `npm test`'s time goes (tsx bench/test-suite-time.ts --label NAME [--root DIR] [--note TEXT]).
 *
 * Runs package.json's `test:services` script as written (read from --root's package.json,
 * default this checkout, so an unchanged checkout can be measured as the baseline), with two extra
 * reporters: spec into bench/results/test-suite-time.NAME.log.tmp and
 * bench/test-suite/file-times-reporter.ts, which gives each file's wall time and test counts.
 * The machine is shared, so the load average is sampled every 10 s during the run and recorded
 * beside the figures: compare shares of the total, not absolute seconds, across runs.
 * Each run is kept under its label in bench/results/test-suite-time.json; test-suite-time.md is
 * rendered from all labels (the first one recorded is the baseline the others are compared with);
 * `--render` only rewrites the .md from the .json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { FileTime } from './test-suite/file-times-reporter.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const RESULTS = join(HERE, 'results');
const JSON_PATH = join(RESULTS, 'test-suite-time.json');
const MD_PATH = join(RESULTS, 'test-suite-time.md');
const REPORTER = join(HERE, 'test-suite', 'file-times-reporter.ts');

interface Run {
  label: string;
  startedAt: string;
  commit: string;
  cores: number;
  /** Load average (1 min) sampled every 10 s during test:services: min, mean, max. */
  load: { min: number; mean: number; max: number };
  exitCode: number | null;
  servicesMs: number;
  /** Share of the machine's CPU time busy during test:services (/proc/stat; absent where there is none): under 1, the run waited on timers or I/O that more files at once could fill. */
  cpuBusy?: number;
  /** What to know when reading the run (--note). */
  note?: string;
  /** The run's own totals, from the spec reporter's closing lines. */
  totals: { tests: number; pass: number; fail: number } | null;
  files: FileTime[];
}

function run(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ ms: number; exitCode: number | null }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', fail);
    child.on('exit', (code) => done({ ms: performance.now() - started, exitCode: code }));
  });
}

function gitCommit(root: string): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' });
    return dirty.trim() === '' ? head : `${head} + uncommitted changes`;
  } catch {
    return 'unknown (not a git checkout; pass --commit)';
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      label: { type: 'string' },
      root: { type: 'string' },
      commit: { type: 'string' },
      render: { type: 'boolean', default: false },
      note: { type: 'string' },
    },
  });
  if (values.render) {
    await writeFile(MD_PATH, render(JSON.parse(readFileSync(JSON_PATH, 'utf8')) as Run[]));
    return;
  }
  if (values.label === undefined || !/^[\w-]+$/.test(values.label)) {
    throw new Error('usage: tsx bench/test-suite-time.ts --label NAME [--root DIR] [--note TEXT] [--commit SHA]');
  }
  const label = values.label;
  const root = resolve(values.root ?? join(HERE, '..'));
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const services = scripts['test:services'];
  const filesPath = join(RESULTS, `test-suite-time.${label}.files.tmp`);
  const logPath = join(RESULTS, `test-suite-time.${label}.log.tmp`);
  const reporters = `--test-reporter=spec --test-reporter-destination=${logPath} --test-reporter=${REPORTER} --test-reporter-destination=${filesPath}`;
  // scripts/test-services.ts takes node's reporter options after its own; checkouts older than it
  // (a baseline measured with --root) ran `node --test <globs>`, which takes them after `--test`.
  let command: string;
  if (services?.includes('scripts/test-services.ts') === true) command = `${services} ${reporters}`;
  else if (services?.includes('--test ') === true) command = services.replace('--test ', `--test ${reporters} `);
  else throw new Error(`no node:test script in ${root}`);
  const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };

  const cpuBefore = cpuTimes();
  const samples: number[] = [loadavg()[0] ?? 0];
  const sampler = setInterval(() => samples.push(loadavg()[0] ?? 0), 10_000);
  const startedAt = new Date().toISOString();
  console.log(`== test:services (spec output in ${logPath})`);
  const services_ = await run(command, root, env);
  clearInterval(sampler);
  samples.push(loadavg()[0] ?? 0);
  const cpuAfter = cpuTimes();

  const files = readFileSync(filesPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FileTime);
  const totals = runTotals(readFileSync(logPath, 'utf8'));
  const round = (n: number) => Math.round(n * 100) / 100;
  const result: Run = {
    label,
    startedAt,
    commit: values.commit ?? gitCommit(root),
    cores: cpus().length,
    load: {
      min: round(Math.min(...samples)),
      mean: round(samples.reduce((a, b) => a + b, 0) / samples.length),
      max: round(Math.max(...samples)),
    },
    exitCode: services_.exitCode,
    servicesMs: Math.round(services_.ms),
    ...(cpuBefore === null || cpuAfter === null
      ? {}
      : { cpuBusy: round(1 - (cpuAfter.idle - cpuBefore.idle) / (cpuAfter.total - cpuBefore.total)) }),
    totals,
    ...(values.note === undefined ? {} : { note: values.note }),
    files,
  };

  const all: Run[] = existsSync(JSON_PATH) ? (JSON.parse(readFileSync(JSON_PATH, 'utf8')) as Run[]) : [];
  const kept = all.filter((r) => r.label !== label);
  kept.push(result);
  await writeFile(JSON_PATH, `${JSON.stringify(kept, null, 2)}\n`);
  await writeFile(MD_PATH, render(kept));
  console.log(
    `${label}: test:services ${(result.servicesMs / 1000).toFixed(1)} s, ${files.length} files, ${totals?.tests ?? '?'} tests, ${totals?.fail ?? '?'} failed, load ${result.load.mean} (mean)`,
  );
  console.log(`wrote ${JSON_PATH} and ${MD_PATH}`);
  process.exitCode = services_.exitCode ?? 1;
}

/** The machine's CPU time in clock ticks since boot, all of it and idle (idle + iowait), or null without /proc/stat. */
function cpuTimes(): { total: number; idle: number } | null {
  if (!existsSync('/proc/stat')) return null;
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { total, idle: (fields[3] ?? 0) + (fields[4] ?? 0) };
}

/** `ℹ tests 363`, `ℹ pass 361`, `ℹ fail 2` at the end of the spec reporter's output. */
function runTotals(specLog: string): Run['totals'] {
  const count = (name: string) => {
    const matches = [...specLog.matchAll(new RegExp(`^ℹ ${name} (\\d+)$`, 'gm'))];
    const last = matches.at(-1)?.[1];
    return last === undefined ? undefined : Number(last);
  };
  const [tests, pass, fail] = [count('tests'), count('pass'), count('fail')];
  return tests === undefined || pass === undefined || fail === undefined ? null : { tests, pass, fail };
}

function seconds(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '–' : (ms / 1000).toFixed(1);
}

function render(runs: Run[]): string {
  const base = runs[0];
  if (base === undefined) return '';
  const lines: string[] = [];
  lines.push('# Test suite wall time', '');
  lines.push(
    'Written by `tsx bench/test-suite-time.ts --label NAME` (see its header). The machine has 2 cores shared by',
    'other engineers running tests, so the load average is given beside each run; compare shares of the total',
    'rather than absolute seconds across runs. The first run is the baseline.',
    '',
  );
  lines.push('## Runs', '');
  lines.push(
    '| run | started (UTC) | commit | cores | load 1 min (min / mean / max) | CPU busy | test:services s | files | tests | failed | exit |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of runs) {
    const tests = r.totals?.tests ?? '?';
    const failed = r.totals?.fail ?? '?';
    lines.push(
      `| ${r.label} | ${r.startedAt} | ${r.commit} | ${r.cores} | ${r.load.min} / ${r.load.mean} / ${r.load.max} | ${r.cpuBusy === undefined ? '–' : `${Math.round(r.cpuBusy * 100)} %`} | ${seconds(r.servicesMs)} | ${r.files.length} | ${tests} | ${failed} | ${r.exitCode} |`,
    );
  }
  lines.push('');
  for (const r of runs) if (r.note !== undefined) lines.push(`- ${r.label}: ${r.note}`);
  if (runs.some((r) => r.note !== undefined)) lines.push('');
  lines.push('## test:services per file', '');
  lines.push(
    "Each file's wall time as node:test measured it (its process, start to exit), in seconds and as a share of",
    "the sum over files. With `--test-concurrency` above 1 files overlap, so the sum exceeds the run's wall time.",
    '',
  );
  const names = [...new Set(runs.flatMap((r) => r.files.map((f) => f.file)))];
  const baseMs = new Map(base.files.map((f) => [f.file, f.durationMs ?? 0]));
  names.sort((a, b) => (baseMs.get(b) ?? 0) - (baseMs.get(a) ?? 0));
  const sums = runs.map((r) => r.files.reduce((a, f) => a + (f.durationMs ?? 0), 0));
  lines.push(`| file | ${runs.map((r) => `${r.label} s | share | tests`).join(' | ')} |`);
  lines.push(`|---|${runs.map(() => '---|---|---').join('|')}|`);
  for (const name of names) {
    const cells = runs.map((r, i) => {
      const f = r.files.find((x) => x.file === name);
      if (f === undefined) return '– | – | –';
      const share = ((f.durationMs ?? 0) / (sums[i] ?? 1)) * 100;
      return `${seconds(f.durationMs)} | ${share.toFixed(1)} % | ${f.passed}/${f.tests}`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  lines.push(
    `| **sum over files** | ${runs.map((r, i) => `${seconds(sums[i] ?? 0)} | 100 % | ${r.files.reduce((a, f) => a + f.tests, 0)}`).join(' | ')} |`,
  );
  lines.push('');
  return `${lines.join('\n')}\n`;
}

await main();
