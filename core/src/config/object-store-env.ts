import { z } from 'zod';
import type { ObjectStoreOptions } from '../object-store.ts';

/**
 * The object-store settings the oracle and the workers share. Both must derive the same public
 * URLs (the worker publishes `audio_url`, the oracle recognises its own audio URLs), so both read
 * them through this module.
 */

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const bool = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

export const objectStoreEnvShape = {
  /** S3-compatible endpoint (MinIO, R2, s3rver); unset means AWS S3 in S3_REGION. */
  S3_ENDPOINT: httpUrl.optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('songmint'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** The store keeps S3 additional checksums (default: true for AWS, that is without S3_ENDPOINT). */
  S3_STORED_CHECKSUMS: bool.optional(),
  /** `{storage_url}`: public base URL of audio and covers, e.g. a CDN in front of the bucket. */
  STORAGE_PUBLIC_URL: httpUrl.optional(),
};

export type ObjectStoreEnv = z.output<z.ZodObject<typeof objectStoreEnvShape>>;

/** Cross-field rules of the object-store settings, for a schema's `superRefine`. */
export function refineObjectStoreEnv(env: ObjectStoreEnv, ctx: z.RefinementCtx): void {
  if (env.S3_ENDPOINT !== undefined && (env.S3_ACCESS_KEY_ID === undefined || env.S3_SECRET_ACCESS_KEY === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['S3_ACCESS_KEY_ID'], message: 'S3_ENDPOINT needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY' });
  }
}

/** Public URL of objects: STORAGE_PUBLIC_URL, else the bucket's own address. */
export function storagePublicUrl(env: ObjectStoreEnv): string {
  if (env.STORAGE_PUBLIC_URL !== undefined) return env.STORAGE_PUBLIC_URL.replace(/\/+$/, '');
  if (env.S3_ENDPOINT !== undefined) return `${env.S3_ENDPOINT.replace(/\/+$/, '')}/${env.S3_BUCKET}`;
  return `https://${env.S3_BUCKET}.s3.${env.S3_REGION}.amazonaws.com`;
}

export function objectStoreOptionsFromEnv(env: ObjectStoreEnv): ObjectStoreOptions {
  return {
    ...(env.S3_ENDPOINT === undefined ? {} : { endpoint: env.S3_ENDPOINT }),
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    ...(env.S3_ACCESS_KEY_ID !== undefined && env.S3_SECRET_ACCESS_KEY !== undefined
      ? { credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } }
      : {}),
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? env.S3_ENDPOINT !== undefined,
    publicBaseUrl: storagePublicUrl(env),
    storedChecksums: env.S3_STORED_CHECKSUMS ?? env.S3_ENDPOINT === undefined,
  };
}
