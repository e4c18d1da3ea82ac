/**
 * Secrets in key references never come back out (issue 42, "Secrets never echoed"): a planted PIN
 * or password, in each of the review's malformed shapes and in well-formed references whose key
 * does not open, is looked for in every channel an operator sees: the parser's and the opener's
 * error messages, the oracle's and the worker's configuration errors, and the stdout and stderr
 * (pino's stream) of the oracle and the worker started with the reference. With SoftHSM: wrong
 * PINs from pin-value and from a pin-source file, and `npm run signer:init`, whose pkcs11-tool
 * runs are recorded by a shim on PATH (exactly what `ps` shows) and must hold no PIN.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseKeyReference, secretsOf, withoutSecrets } from '../../core/src/signing/key-reference.ts';
import { openSigningKeyFrom } from '../../core/src/signing/open-signing-key.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import { loadWorkerConfig } from '../../inference/src/config.ts';
import { loadConfig } from '../../oracle/src/config.ts';
import { PIN_VARIABLES, tokenSetupRuns } from '../../scripts/signer-init.ts';
import { createSoftHsmToken, SOFTHSM_MODULE, softHsmMissing } from '../support/softhsm.ts';
import type { SoftHsmToken } from '../support/softhsm.ts';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The planted secret: two halves, so a PIN split at an unescaped '&' is still caught by either half. */
const HALVES = ['Qx7Kp2Zt', 'Vm9Lr4Wj'] as const;
const PIN = HALVES.join('');

function assertClean(text: string, where: string): void {
  for (const half of HALVES) assert.ok(!text.includes(half), `${where} echoes the secret (${half}): ${text}`);
}

/** The review's shapes, and a few more, each refused at parse time, with what the refusal must say. */
const MALFORMED: Array<[string, string, RegExp]> = [
  [
    "a PIN with an unescaped '&'",
    `pkcs11:token=t;object=o?module-path=${SOFTHSM_MODULE}&pin-value=${HALVES[0]}&${HALVES[1]}`,
    /query has an attribute other than .* %26/,
  ],
  ["';' in place of '&' before the PIN", `pkcs11:token=t;object=o?module-path=${SOFTHSM_MODULE};pin-value=${PIN}`, /module-path must be/],
  ['a password in an awskms:// endpoint', `awskms://songmint:${PIN}@127.0.0.1:4566/alias/mint`, /no user name or password/],
  ['a user name alone in an awskms:// endpoint', `awskms://${PIN}@kms.eu-west-1.amazonaws.com/alias/mint`, /no user name or password/],
  ['the PIN in the path component', `pkcs11:token=t;object=o;pin-value=${PIN}?module-path=${SOFTHSM_MODULE}`, /belongs in the query/],
  ["'&' in place of ';' before the PIN", `pkcs11:token=t&pin-value=${PIN};object=o?module-path=${SOFTHSM_MODULE}`, /belongs in the query/],
  [
    'the secret as a query attribute name',
    `pkcs11:token=t;object=o?module-path=${SOFTHSM_MODULE}&${PIN}=1&pin-value=1234`,
    /query has an attribute/,
  ],
  ['no module-path', `pkcs11:token=t;object=o?pin-value=${PIN}`, /module-path=/],
  ['pin-value and pin-source', `pkcs11:token=t;object=o?module-path=${SOFTHSM_MODULE}&pin-value=${PIN}&pin-source=/run/pin`, /not both/],
  ['a bad escape in the PIN', `pkcs11:token=t;object=o?module-path=${SOFTHSM_MODULE}&pin-value=${PIN}%zz`, /percent-escape in pin-value/],
  [
    'an unknown path attribute after the PIN shape',
    `pkcs11:token=t;object=o;${PIN}?module-path=${SOFTHSM_MODULE}&pin-value=1234`,
    /path attribute/,
  ],
  ['the password in the key part', `awskms:///alias/mint:${PIN}@x`, /not a KMS key id/],
];

describe('key references never echo a secret', () => {
  it('the parser, the oracle config and the worker config refuse each malformed reference without quoting the secret', () => {
    for (const [shape, reference, says] of MALFORMED) {
      const parsed = parseKeyReference('PLATFORM_SIGNER', reference);
      assert.ok(!parsed.ok, shape);
      assert.match(parsed.error.message, says, shape);
      assertClean(parsed.error.message, `parser (${shape})`);
      const oracle = loadConfig({ PLATFORM_SIGNER: reference });
      assert.ok(!oracle.ok, shape);
      assertClean(JSON.stringify(oracle.error), `oracle config (${shape})`);
      assert.match(oracle.error.message, /PLATFORM_SIGNER: /);
      const worker = loadWorkerConfig({
        DATABASE_URL: 'postgres://127.0.0.1/x',
        C2PA_SIGN_CERT: '/nonexistent.pem',
        C2PA_SIGNER: reference,
      });
      assert.ok(!worker.ok, shape);
      assertClean(JSON.stringify(worker.error), `worker config (${shape})`);
    }
  });

  it('finds the secrets of a reference by text, and blanks them from any message', () => {
    const reference = `pkcs11:token=t;object=o?module-path=/m.so&pin-value=${HALVES[0]}%26${HALVES[1]}&module-name=x`;
    assert.ok(secretsOf(reference).includes(`${HALVES[0]}&${HALVES[1]}`));
    assert.equal(
      withoutSecrets(`login as ${PIN.slice(0, 8)}&${HALVES[1]} failed`, secretsOf(reference)),
      'login as [secret hidden] failed',
    );
    assert.deepEqual(secretsOf(`awskms://u:${PIN}@h/alias/a`).sort(), [PIN, `u:${PIN}`].sort());
    assert.deepEqual(secretsOf('pkcs11:token=t;object=o?module-path=/m.so&pin-source=/run/pin'), []);
  });

  it('a well-formed reference whose key does not open: the error names the module, never the PIN', async () => {
    const reference = `pkcs11:token=t;object=o?module-path=/nonexistent/libnothing.so&pin-value=${PIN}`;
    assert.ok(parseKeyReference('PLATFORM_SIGNER', reference).ok);
    const opened = await openSigningKeyFrom('PLATFORM_SIGNER', reference, 'secp256k1');
    assert.ok(!opened.ok);
    assert.match(opened.error.message, /cannot load the PKCS#11 module \/nonexistent\/libnothing\.so/);
    assertClean(opened.error.message, 'open error');
  });

  it("the oracle's and the worker's output (pino on stdout, stderr) when started with such references holds no secret", async () => {
    const run = async (entry: string, env: Record<string, string>) => {
      const child = await execFileAsync(process.execPath, ['--conditions=songmint-source', '--import', 'tsx', entry], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        timeout: 60_000,
      }).then(
        (done) => ({ code: 0, output: done.stdout + done.stderr }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? -1,
          output: `${error.stdout}${error.stderr}`,
        }),
      );
      return child;
    };
    const [config, open, worker] = await Promise.all([
      run('oracle/src/main.ts', { PLATFORM_SIGNER: MALFORMED[0]![1] }),
      run('oracle/src/main.ts', {
        PLATFORM_SIGNER: `pkcs11:token=t;object=o?module-path=/nonexistent/libnothing.so&pin-value=${PIN}`,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      }),
      run('inference/src/main.ts', {
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        C2PA_SIGN_CERT: '/nonexistent.pem',
        C2PA_SIGNER: MALFORMED[1]![1],
      }),
    ]);
    assert.equal(config.code, 1, config.output);
    assert.match(config.output, /"msg":"invalid configuration"/);
    assert.match(config.output, /PLATFORM_SIGNER: the pkcs11: URI query has an attribute other than .*\(value hidden\)/);
    assertClean(config.output, 'oracle output (bad reference)');
    assert.equal(open.code, 1, open.output);
    assert.match(open.output, /"msg":"the oracle could not start"/);
    assert.match(open.output, /cannot load the PKCS#11 module \/nonexistent\/libnothing\.so/);
    assertClean(open.output, 'oracle output (key that does not open)');
    assert.equal(worker.code, 2, worker.output);
    assert.match(worker.output, /"msg":"invalid worker configuration"/);
    assert.match(worker.output, /C2PA_SIGNER: module-path must be/);
    assertClean(worker.output, 'worker output');
  });

  it('signer:init gives pkcs11-tool every PIN through its environment (env:NAME), none on a command line', () => {
    for (const step of tokenSetupRuns()) {
      for (const [i, arg] of step.args.entries()) {
        if (arg === '--pin' || arg === '--so-pin') assert.match(step.args[i + 1] ?? '', /^env:SONGMINT_HSM_(USER|SO)_PIN$/);
      }
      for (const which of step.pins) assert.ok(step.args.includes(`env:${PIN_VARIABLES[which]}`));
    }
  });
});

describe('key references never echo a secret: SoftHSM2', { skip: softHsmMissing() }, () => {
  let token: SoftHsmToken;
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  before(async () => {
    token = await createSoftHsmToken('songmint-secrets');
    await token.generateKey('mint', 'EC:secp256k1', '01');
    dir = await makeTempDir('secrets');
  });
  after(async () => {
    await token?.remove();
    await dir?.remove();
  });

  it('a wrong PIN from pin-value or from a pin-source file is refused without quoting it', async () => {
    const byValue = await openSigningKeyFrom('PLATFORM_SIGNER', token.uri('mint', PIN), 'secp256k1');
    assert.ok(!byValue.ok);
    assert.match(byValue.error.message, /the PIN for token "songmint-secrets" is wrong/);
    assertClean(byValue.error.message, 'wrong pin-value');
    const pinFile = join(dir.path, 'pin');
    await writeFile(pinFile, `${PIN}\n`, { mode: 0o600 });
    const bySource = await openSigningKeyFrom(
      'PLATFORM_SIGNER',
      token.uri('mint').replace(/pin-value=.*$/, `pin-source=${pinFile}`),
      'secp256k1',
    );
    assert.ok(!bySource.ok);
    assert.match(bySource.error.message, /is wrong/);
    assertClean(bySource.error.message, 'wrong pin-source');
    await writeFile(pinFile, `${PIN}\n${PIN}\n`);
    const twoLines = parseKeyReference('PLATFORM_SIGNER', token.uri('mint').replace(/pin-value=.*$/, `pin-source=${pinFile}`));
    assert.ok(!twoLines.ok);
    assert.match(twoLines.error.message, /must hold the PIN alone/);
    assertClean(twoLines.error.message, 'pin-source of two lines');
  });

  it('npm run signer:init: the pkcs11-tool runs it starts hold no PIN in their command lines, and the key it prints opens', async () => {
    // A pkcs11-tool first on PATH that records its command line (/proc/self/cmdline, what ps shows) and runs the real one.
    const shims = join(dir.path, 'bin');
    const log = join(dir.path, 'cmdlines');
    await mkdir(shims);
    await writeFile(
      join(shims, 'pkcs11-tool'),
      `#!/bin/sh\ntr '\\0' ' ' < /proc/$$/cmdline >> '${log}'\necho >> '${log}'\nexec /usr/bin/pkcs11-tool "$@"\n`,
    );
    await chmod(join(shims, 'pkcs11-tool'), 0o755);
    const data = join(dir.path, 'data');
    const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', 'scripts/signer-init.ts'], {
      cwd: ROOT,
      env: { ...process.env, PATH: `${shims}:${process.env.PATH ?? ''}`, DATA_DIR: data },
      timeout: 60_000,
    });
    const pins = [(await readFile(join(data, 'softhsm', 'user.pin'), 'utf8')).trim()];
    const cmdlines = (await readFile(log, 'utf8')).trim().split('\n');
    assert.equal(cmdlines.length, 3, cmdlines.join('\n'));
    for (const line of cmdlines) {
      assert.match(line, /pkcs11-tool --module/);
      for (const pin of pins) assert.ok(!line.includes(pin), `a command line holds the user PIN: ${line}`);
      assert.ok(!/(--pin|--so-pin) (?!env:)/.test(line), `a PIN given in the clear: ${line}`);
    }
    assertClean(stdout, 'signer:init output');
    const reference = /PLATFORM_SIGNER='([^']+)'/.exec(stdout)?.[1];
    const conf = /SOFTHSM2_CONF=(\S+)/.exec(stdout)?.[1];
    assert.ok(reference !== undefined && conf !== undefined, stdout);
    assert.ok(!reference.includes(pins[0]!), 'the printed reference names the PIN file, not the PIN');
    const savedConf = process.env.SOFTHSM2_CONF;
    // The module reads SOFTHSM2_CONF when it is first loaded in this process: a child opens the key.
    const { stdout: opened } = await execFileAsync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { openSigningKeyFrom } = await import(${JSON.stringify(join(ROOT, 'core/src/signing/open-signing-key.ts'))});
         const key = await openSigningKeyFrom('PLATFORM_SIGNER', process.env.REFERENCE, 'secp256k1');
         console.log(key.ok ? key.value.display : key.error.message);
         if (key.ok) await key.value.close();`,
      ],
      { cwd: ROOT, env: { ...process.env, SOFTHSM2_CONF: conf, REFERENCE: reference }, timeout: 60_000 },
    );
    assert.equal(savedConf, process.env.SOFTHSM2_CONF);
    assert.equal(opened.trim(), 'pkcs11:token=songmint-dev;object=platform-signer');
  });
});
