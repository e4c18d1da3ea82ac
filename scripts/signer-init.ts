/**
 * `npm run signer:init`: a SoftHSM2 token for local use under DATA_DIR/softhsm (its own
 * softhsm2.conf, token folder and PIN file), with a secp256k1 key generated inside the token by
 * OpenSC's pkcs11-tool. Prints the SOFTHSM2_CONF and PLATFORM_SIGNER to set for `npm start`; the
 * key never leaves the token. Development only: a production HSM is set up by its vendor's tools.
 * Needs Debian's softhsm2 and opensc (`apt-get install softhsm2 opensc`).
 */
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const TOKEN = 'songmint-dev';
const OBJECT = 'platform-signer';

const dir = resolve(process.env.DATA_DIR ?? '.data', 'softhsm');
const conf = join(dir, 'softhsm2.conf');
const pinFile = join(dir, 'user.pin');
if (!existsSync(MODULE)) {
  process.stderr.write(`${MODULE} is missing: apt-get install softhsm2 opensc\n`);
  process.exit(1);
}
if (existsSync(conf)) {
  process.stderr.write(`${dir} already holds a token; remove the folder to make a new one\n`);
  process.exit(1);
}
await mkdir(join(dir, 'tokens'), { recursive: true, mode: 0o700 });
await writeFile(conf, `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
const pin = String(randomInt(10_000_000, 99_999_999));
await writeFile(pinFile, `${pin}\n`, { mode: 0o600 });
const env = { ...process.env, SOFTHSM2_CONF: conf };
const soPin = String(randomInt(10_000_000, 99_999_999));
await run('softhsm2-util', ['--init-token', '--free', '--label', TOKEN, '--pin', pin, '--so-pin', soPin], { env });
await run(
  'pkcs11-tool',
  [
    '--module',
    MODULE,
    '--token-label',
    TOKEN,
    '--login',
    '--pin',
    pin,
    '--keypairgen',
    '--key-type',
    'EC:secp256k1',
    '--label',
    OBJECT,
    '--id',
    '01',
  ],
  { env },
);
process.stdout.write(
  [
    `A secp256k1 key was generated inside the SoftHSM token "${TOKEN}" (${dir}). Set:`,
    `  export SOFTHSM2_CONF=${conf}`,
    `  export PLATFORM_SIGNER='pkcs11:token=${TOKEN};object=${OBJECT}?module-path=${MODULE}&pin-source=${pinFile}'`,
    'then `npm start`: the local chain makes this key the platform signer.',
    '',
  ].join('\n'),
);
