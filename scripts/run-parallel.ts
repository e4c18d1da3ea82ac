/**
 * Runs npm scripts side by side and fails if any fails: `tsx scripts/run-parallel.ts typecheck:node lint`.
 *
 * `npm test` type-checks, lints and runs the Hardhat tests on the machine's 2 cores at once instead
 * of one after the other (tsc and eslint are each single-threaded): about 35 s off the suite, and
 * 19 s more with the Hardhat tests beside them (88 s against 67 s + 40 s, 2 cores). Each script's output is
 * printed whole when it ends, so two logs never interleave, and its exit code decides. The
 * scripts must not write what the other reads: `npm test` runs `lint` and `typecheck:web` (which
 * read no build output) beside `test:built`, which builds the contracts (typechain types
 * included) and only then starts `typecheck:node` and `test:contracts`, the two that read them.
 * The build (solc in WebAssembly, one thread, about 24 s on a fresh clone) had the machine's
 * second core idle: with lint and the web typecheck beside it (and that typecheck in one process,
 * scripts/typecheck-projects.ts) the phase took 83.5 s instead of 95 s (means of two fresh-state
 * runs each, load 4.6-5.1 on the shared machine, 2026-11-30).
 */
import { spawn } from 'node:child_process';

interface Finished {
  script: string;
  code: number;
  output: string;
  seconds: number;
}

function runScript(script: string): Promise<Finished> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ script, code: 1, output: `${output}${error.message}\n`, seconds: 0 }));
    child.on('close', (code, signal) =>
      resolve({ script, code: code ?? (signal === null ? 1 : 128), output, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: tsx scripts/run-parallel.ts <npm script> [<npm script> ...]\n');
  process.exit(2);
}
const results = await Promise.all(
  scripts.map((script) =>
    runScript(script).then((finished) => {
      const output = finished.output.endsWith('\n') || finished.output === '' ? finished.output : `${finished.output}\n`;
      process.stdout.write(`\n> npm run ${finished.script} (${finished.seconds.toFixed(0)} s, exit ${finished.code})\n${output}`);
      return finished;
    }),
  ),
);
const failed = results.filter((result) => result.code !== 0);
for (const result of failed) process.stderr.write(`npm run ${result.script} failed with exit code ${result.code}\n`);
process.exit(failed.length === 0 ? 0 : 1);
