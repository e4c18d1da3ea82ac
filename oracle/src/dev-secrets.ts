import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';

/**
 * Development secrets, generated on first start and kept under DATA_DIR so that tokens and
 * signatures survive a restart. Production refuses to start without real ones (config.ts).
 */
async function readOrCreate(path: string, create: () => string): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    const value = create();
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${value}\n`, { mode: 0o600 });
    return value;
  }
}

export async function devJwtSecret(path: string): Promise<string> {
  return readOrCreate(path, () => randomBytes(32).toString('base64url'));
}

export async function devSignerKey(path: string): Promise<Hex> {
  const key = await readOrCreate(path, () => generatePrivateKey());
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error(`${path} does not hold a 0x-prefixed 32-byte key`);
  return key as Hex;
}
