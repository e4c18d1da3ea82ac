/**
 * Operator tool: sets a user's tier (tiers are never set by clients).
 *
 *   npx tsx scripts/set-tier.ts 0xWALLET pro      # against the running `npm start` stack
 *   DATABASE_URL=postgres://... npx tsx scripts/set-tier.ts 0xWALLET pro
 *
 * Equivalent SQL: UPDATE users SET tier = 'pro', updated_at = now() WHERE wallet_address = lower('0x...');
 * The change applies to the user's next request (tokens carry no tier).
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { closeDatabase, createDatabase } from '../core/src/db/database.ts';
import type { Tier } from '../core/src/generation-queue.ts';
import { setUserTier } from '../oracle/src/domain/users.ts';

const TIERS: readonly Tier[] = ['free', 'pro', 'enterprise'];

function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}

/** The database of a running `npm start` stack (it writes DATA_DIR/dev-stack.json). */
async function devStackDatabaseUrl(): Promise<string | undefined> {
  try {
    const state = JSON.parse(await readFile(join(resolve(process.env.DATA_DIR ?? '.data'), 'dev-stack.json'), 'utf8')) as {
      databaseUrl?: unknown;
    };
    return typeof state.databaseUrl === 'string' ? state.databaseUrl : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const [wallet, tier] = process.argv.slice(2);
  const given = process.env.DATABASE_URL;
  const databaseUrl = given !== undefined && given !== '' ? given : await devStackDatabaseUrl();
  if (wallet === undefined || tier === undefined || !/^0x[0-9a-fA-F]{40}$/.test(wallet) || !isTier(tier)) {
    throw new Error('usage: DATABASE_URL=... npx tsx scripts/set-tier.ts <0x wallet> <free|pro|enterprise>');
  }
  if (databaseUrl === undefined) throw new Error('DATABASE_URL is not set and no `npm start` stack is running');
  const db = createDatabase(databaseUrl);
  try {
    const updated = await setUserTier(db, wallet.toLowerCase(), tier);
    if (!updated) throw new Error(`no user with wallet ${wallet.toLowerCase()} (the user is created at first sign-in)`);
    console.log(`${wallet.toLowerCase()} is now ${tier}`);
  } finally {
    await closeDatabase(db);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
