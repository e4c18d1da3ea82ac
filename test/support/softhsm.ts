/**
 * A fresh SoftHSM2 token for a test run (Debian's softhsm2, the real PKCS#11 module): its own
 * token folder under a temporary directory (`SOFTHSM2_CONF` points this process at it), the token
 * initialised and its keys generated inside it by OpenSC's `pkcs11-tool`, which reads the PINs
 * from its environment (`--pin env:NAME`), never from its command line. The key pairs never
 * leave the token; tests get `pkcs11:` URIs.
 *
 * Where the tools are not installed (.ci/run installs them), `softHsmMissing()` says why, for
 * `describe(..., { skip })`.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';

const run = promisify(execFile);

export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const TOOLS = ['/usr/bin/pkcs11-tool'];
const SO_PIN = '13579111';

/** Why SoftHSM tests cannot run here, or undefined when they can. */
export function softHsmMissing(): string | undefined {
  for (const path of [SOFTHSM_MODULE, ...TOOLS])
    if (!existsSync(path)) return `${path} is not installed (apt-get install softhsm2 opensc; .ci/run does)`;
  return undefined;
}

export interface SoftHsmToken {
  label: string;
  pin: string;
  /** The folder of the token files and softhsm2.conf. */
  dir: string;
  /** Generates a key pair inside the token (`EC:secp256k1` or `EC:prime256v1`) labelled `object`. */
  generateKey(object: string, keyType: 'EC:secp256k1' | 'EC:prime256v1', id: string): Promise<void>;
  /** The key's RFC 7512 URI; `pin` overrides the token's PIN (a wrong one, in tests). */
  uri(object: string, pin?: string): string;
  remove(): Promise<void>;
}

/** Creates the token and points this process (and the children it starts) at it via SOFTHSM2_CONF. */
export async function createSoftHsmToken(label = 'songmint-test'): Promise<SoftHsmToken> {
  const dir = await makeTempDir('softhsm');
  const tokens = join(dir.path, 'tokens');
  const conf = join(dir.path, 'softhsm2.conf');
  await run('mkdir', ['-p', tokens]);
  await writeFile(conf, `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`);
  process.env.SOFTHSM2_CONF = conf;
  const pin = '246810';
  const env = { ...process.env, SONGMINT_HSM_USER_PIN: pin, SONGMINT_HSM_SO_PIN: SO_PIN };
  const tool = (args: string[]) => run('pkcs11-tool', ['--module', SOFTHSM_MODULE, ...args], { env });
  await tool(['--init-token', '--label', label, '--so-pin', 'env:SONGMINT_HSM_SO_PIN']);
  await tool([
    '--token-label',
    label,
    '--login',
    '--login-type',
    'so',
    '--so-pin',
    'env:SONGMINT_HSM_SO_PIN',
    '--init-pin',
    '--pin',
    'env:SONGMINT_HSM_USER_PIN',
  ]);
  return {
    label,
    pin,
    dir: dir.path,
    async generateKey(object, keyType, id) {
      await tool([
        '--token-label',
        label,
        '--login',
        '--pin',
        'env:SONGMINT_HSM_USER_PIN',
        '--keypairgen',
        '--key-type',
        keyType,
        '--label',
        object,
        '--id',
        id,
      ]);
    },
    uri: (object, pinValue = pin) =>
      `pkcs11:token=${encodeURIComponent(label)};object=${encodeURIComponent(object)}?module-path=${SOFTHSM_MODULE}&pin-value=${encodeURIComponent(pinValue)}`,
    remove: () => dir.remove(),
  };
}
