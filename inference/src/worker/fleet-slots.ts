/**
 * The fleet-wide cap on parallel generations (spec: 10): a job runs only while its worker holds
 * one of N PostgreSQL advisory locks, taken on a dedicated connection. A killed worker's
 * connection closes and PostgreSQL frees its slot; no process can hold more slots than exist.
 */
import type { Database } from '../../../core/src/db/database.ts';

/** First key of the two-key advisory lock: "SMG" + 1, so slots do not collide with other locks. */
export const FLEET_LOCK_NAMESPACE = 0x534d4701;

export interface FleetSlot {
  slot: number;
  release(): Promise<void>;
}

export async function tryAcquireSlot(db: Database, slots: number): Promise<FleetSlot | undefined> {
  const connection = await db.connect();
  try {
    // Start at a random slot so workers do not all contend for slot 0 first.
    const offset = Math.floor(Math.random() * slots);
    for (let i = 0; i < slots; i += 1) {
      const slot = (offset + i) % slots;
      const row = await connection.one<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS ok', [FLEET_LOCK_NAMESPACE, slot]);
      if (row.ok) {
        return {
          slot,
          async release() {
            try {
              await connection.one('SELECT pg_advisory_unlock($1, $2)', [FLEET_LOCK_NAMESPACE, slot]);
            } finally {
              connection.done();
            }
          },
        };
      }
    }
  } catch (err) {
    connection.done();
    throw err;
  }
  connection.done();
  return undefined;
}
