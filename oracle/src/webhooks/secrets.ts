/**
 * Each user's webhook signing secret, created on first use (the secret route or the first
 * delivery, whichever comes first) and kept in PostgreSQL so every replica signs alike.
 */
import type { Queryable } from '../../../core/src/db/database.ts';
import { generateSecret } from './signing.ts';

export interface WebhookSecret {
  secret: string;
  createdAt: Date;
}

/**
 * The user's secret, made now if there is none. Concurrent first uses agree: the insert of one
 * wins and the rest read it. A loser whose snapshot predates the winner's commit sees no row and
 * asks again (a fresh snapshot).
 */
export async function userWebhookSecret(db: Queryable, userId: string): Promise<WebhookSecret> {
  for (;;) {
    const found = await madeOrFound(db, userId);
    if (found !== null) return found;
  }
}

async function madeOrFound(db: Queryable, userId: string): Promise<WebhookSecret | null> {
  const row = await db.oneOrNone<{ secret: string; created_at: Date }>(
    `WITH made AS (
       INSERT INTO webhook_secrets (user_id, secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO NOTHING
       RETURNING secret, created_at
     )
     SELECT secret, created_at FROM made
     UNION ALL
     SELECT secret, created_at FROM webhook_secrets WHERE user_id = $1
     LIMIT 1`,
    [userId, generateSecret()],
  );
  return row === null ? null : { secret: row.secret, createdAt: row.created_at };
}

/** Replaces the user's secret; deliveries from now on (retries included) are signed with the new one. */
export async function rotateWebhookSecret(db: Queryable, userId: string): Promise<WebhookSecret> {
  const row = await db.one<{ secret: string; created_at: Date }>(
    `INSERT INTO webhook_secrets (user_id, secret) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, created_at = now()
     RETURNING secret, created_at`,
    [userId, generateSecret()],
  );
  return { secret: row.secret, createdAt: row.created_at };
}
