/**
 * `npm run signer:init`: a SoftHSM2 token for local use under DATA_DIR/softhsm (its own
 * softhsm2.conf, token folder and PIN file), with a secp256k1 key generated inside the token by
 * OpenSC's pkcs11-tool. Prints the SOFTHSM2_CONF and PLATFORM_SIGNER to set for `npm start`; the
 * key never leaves the token. Development only: a production HSM is set up by its vendor's tools.
 * Needs Debian's softhsm2 and opensc (`apt-get install softhsm2 opensc`).
 *
 * The PINs never reach a command line (anyone on the machine reads those, `ps` or
 * /proc/<pid>/cmdline): pkcs11-tool gets `--pin env:NAME` / `--so-pin env:NAME` and reads the PIN
 * from its environment (OpenSC's `util_get_pin`), which only the same user can read. The user PIN
 * is written to a 0600 file that PLATFORM_SIGNER names with `pin-source`; the SO PIN is thrown away.
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const TOKEN = 'songmint-dev';
const OBJECT = 'platform-signer';
/** The environment variables pkcs11-tool reads the PINs from. */
export const PIN_VARIABLES = { user: 'SONGMINT_HSM_USER_PIN', so: 'SONGMINT_HSM_SO_PIN' } as const;

export interface ToolRun {
  args: string[];
  /** Names of the PIN variables this run needs in its environment (their values never in `args`). */
  pins: Array<keyof typeof PIN_VARIABLES>;
}

/**
 * The pkcs11-tool runs that make the token and its key: initialise the token (SO PIN), set the
 * user PIN (as SO), generate the key pair (as user). Every PIN is `env:<variable>`.
 */
export function tokenSetupRuns(module = SOFTHSM_MODULE, token = TOKEN, object = OBJECT): ToolRun[] {
  const so = `env:${PIN_VARIABLES.so}`;
  const user = `env:${PIN_VARIABLES.user}`;
  return [
    { args: ['--module', module, '--init-token', '--label', token, '--so-pin', so], pins: ['so'] },
    {
      args: ['--module', module, '--token-label', token, '--login', '--login-type', 'so', '--so-pin', so, '--init-pin', '--pin', user],
      pins: ['so', 'user'],
    },
    {
      args: [
        '--module',
        module,
        '--token-label',
        token,
        '--login',
        '--pin',
        user,
        '--keypairgen',
        '--key-type',
        'EC:secp256k1',
        '--label',
        object,
        '--id',
        '01',
      ],
      pins: ['user'],
    },
  ];
}

async function main(): Promise<void> {
  const dir = resolve(process.env.DATA_DIR ?? '.data', 'softhsm');
  const conf = join(dir, 'softhsm2.conf');
  const pinFile = join(dir, 'user.pin');
  if (!existsSync(SOFTHSM_MODULE)) {
    process.stderr.write(`${SOFTHSM_MODULE} is missing: apt-get install softhsm2 opensc\n`);
    process.exit(1);
  }
  if (existsSync(conf)) {
    process.stderr.write(`${dir} already holds a token; remove the folder to make a new one\n`);
    process.exit(1);
  }
  await mkdir(join(dir, 'tokens'), { recursive: true, mode: 0o700 });
  await writeFile(conf, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  const pins = { user: String(randomInt(10_000_000, 99_999_999)), so: String(randomInt(10_000_000, 99_999_999)) };
  await writeFile(pinFile, `${pins.user}\n`, { mode: 0o600 });
  for (const step of tokenSetupRuns()) {
    const env: NodeJS.ProcessEnv = { ...process.env, SOFTHSM2_CONF: conf };
    for (const which of step.pins) env[PIN_VARIABLES[which]] = pins[which];
    await run('pkcs11-tool', step.args, { env });
  }
  process.stdout.write(
    [
      `A secp256k1 key was generated inside the SoftHSM token "${TOKEN}" (${dir}). Set:`,
      `  export SOFTHSM2_CONF=${conf}`,
      `  export PLATFORM_SIGNER='pkcs11:token=${TOKEN};object=${OBJECT}?module-path=${SOFTHSM_MODULE}&pin-source=${pinFile}'`,
      'then `npm start`: the local chain makes this key the platform signer.',
      '',
    ].join('\n'),
  );
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    process.stderr.write(`signer:init failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
