/**
 * Songmint as a Farcaster Mini App: the domain manifest a Farcaster client fetches from
 * `/.well-known/farcaster.json` before it lists or opens the app. It is the operator's
 * configuration (the account association they signed for their domain with their fid, the app's
 * name, icon and home URL), checked once at start against the published schema
 * (`@farcaster/miniapp-core`'s `domainManifestSchema`), then served as it is.
 */
import { domainManifestSchema } from '@farcaster/miniapp-core';
import { Router } from 'express';
import { z } from 'zod';
import { fail, ok } from '../../../core/src/result.ts';
import type { DomainError, Result } from '../../../core/src/result.ts';

/** What the operator configures; the environment's names are in docs/operations.md. */
export interface MiniAppSettings {
  /** `{header, payload, signature}` as Farcaster's manifest tool signs it (JSON Farcaster Signature). */
  accountAssociation: string;
  name: string;
  iconUrl: string;
  homeUrl: string;
  splashImageUrl?: string;
  splashBackgroundColor?: string;
  description?: string;
}

export type MiniAppManifest = Record<string, unknown>;

const associationSchema = z.strictObject({ header: z.string().min(1), payload: z.string().min(1), signature: z.string().min(1) });
const payloadSchema = z.object({ domain: z.string().min(1) });

function base64UrlJson(text: string): unknown {
  return JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
}

/**
 * The manifest for `domain` (the host users reach the app at, SIWE_DOMAIN), or what is wrong with
 * the settings: an association that is not JSON Farcaster Signature, one signed for another
 * domain, or fields the published schema refuses (https URLs on a public host, names without
 * emoji or special characters, and so on).
 */
export function buildMiniAppManifest(settings: MiniAppSettings, domain: string): Result<MiniAppManifest, DomainError<'invalid_manifest'>> {
  const refuse = (message: string) => fail({ code: 'invalid_manifest' as const, message });
  let association: z.infer<typeof associationSchema>;
  let signedDomain: string;
  try {
    association = associationSchema.parse(JSON.parse(settings.accountAssociation));
    signedDomain = payloadSchema.parse(base64UrlJson(association.payload)).domain;
  } catch {
    return refuse('FARCASTER_ACCOUNT_ASSOCIATION must be the JSON {header, payload, signature} of a signed account association');
  }
  if (signedDomain !== domain) {
    return refuse(`FARCASTER_ACCOUNT_ASSOCIATION is signed for ${signedDomain}, but the app is served at ${domain} (SIWE_DOMAIN)`);
  }
  const miniapp = {
    version: '1',
    name: settings.name,
    iconUrl: settings.iconUrl,
    homeUrl: settings.homeUrl,
    primaryCategory: 'music',
    requiredChains: ['eip155:8453'],
    ...(settings.splashImageUrl === undefined ? {} : { splashImageUrl: settings.splashImageUrl }),
    ...(settings.splashBackgroundColor === undefined ? {} : { splashBackgroundColor: settings.splashBackgroundColor }),
    ...(settings.description === undefined ? {} : { description: settings.description }),
  };
  const manifest = { accountAssociation: association, miniapp };
  const checked = domainManifestSchema.safeParse(manifest);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    return refuse(`the Mini App manifest does not pass Farcaster's schema: ${issues}`);
  }
  return ok(manifest);
}

/** Serves the manifest at `/farcaster.json` (mounted at `/.well-known`): public, cacheable for an hour. */
export function miniAppManifestRouter(manifest: MiniAppManifest): Router {
  const router = Router();
  const body = JSON.stringify(manifest);
  router.get('/farcaster.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/json').send(body);
  });
  return router;
}
