/**
 * The Python client's pytest suite (clients/python/tests) run from node:test: Debian's
 * /usr/bin/python3 with python3-httpx, python3-pytest, python3-ecdsa and python3-pycryptodome
 * (`.ci/run` installs them; clients/python/README.md says how). Where one is missing the suite is
 * skipped with the reason printed, as the other system tools' tests are.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

export const PYTHON = '/usr/bin/python3';
/** Debian package of each module the suite imports. */
const MODULES: ReadonlyArray<[module: string, debianPackage: string]> = [
  ['httpx', 'python3-httpx'],
  ['pytest', 'python3-pytest'],
  ['ecdsa', 'python3-ecdsa'],
  ['Cryptodome', 'python3-pycryptodome'],
];

/** Why the suite cannot run here, or undefined when it can. */
export async function pythonClientSkip(): Promise<string | undefined> {
  if (!existsSync(PYTHON)) return `${PYTHON} is missing (apt-get install python3 ${MODULES.map(([, p]) => p).join(' ')})`;
  const missing: string[] = [];
  for (const [module, debianPackage] of MODULES) {
    await promisify(execFile)(PYTHON, ['-c', `import ${module}`]).catch(() => missing.push(debianPackage));
  }
  if (missing.length > 0) return `Python modules missing: apt-get install ${missing.join(' ')}`;
  return undefined;
}

export interface PytestRun {
  /** pytest's exit status: 0 passed, 1 failures, 5 no tests collected. */
  code: number | null;
  output: string;
}

/** Runs `python3 -m pytest clients/python/tests` against the stack at `baseUrl`. */
export async function runPythonClientTests(baseUrl: string, args: ReadonlyArray<string> = []): Promise<PytestRun> {
  const child = spawn(PYTHON, ['-m', 'pytest', 'clients/python/tests', '-ra', '-p', 'no:cacheprovider', ...args], {
    env: { ...process.env, SONGMINT_BASE_URL: baseUrl, PYTHONDONTWRITEBYTECODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, output };
}
