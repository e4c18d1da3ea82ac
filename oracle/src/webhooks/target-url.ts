/**
 * The submit-time check of a generate request's `webhook` (the schema has checked its shape:
 * an absolute http(s) URL without userinfo). What depends on the operator's allow-list is here:
 * https unless the host is allow-listed, and an IP-literal host must be a public address unless
 * allow-listed. Host names are resolved and checked again at each delivery (./delivery.ts),
 * where the answer is the one that is used.
 */
import { isIP } from 'node:net';
import { ok } from '../../../core/src/result.ts';
import type { Result } from '../../../core/src/result.ts';
import { bareHost, isAllowListed, isPublicAddress } from './address-policy.ts';
import type { AllowList } from './address-policy.ts';

export interface WebhookTargetError {
  code: 'insecure_scheme' | 'private_address';
  message: string;
}

export function checkWebhookTarget(raw: string, allowList: AllowList): Result<string, WebhookTargetError> {
  const url = new URL(raw);
  if (isAllowListed(url, allowList)) return ok(url.href);
  if (url.protocol !== 'https:') {
    return {
      ok: false,
      error: { code: 'insecure_scheme', message: 'must be an https URL (http only for hosts in the development allow-list)' },
    };
  }
  const host = bareHost(url.hostname);
  if (isIP(host) !== 0 && !isPublicAddress(host)) {
    return {
      ok: false,
      error: { code: 'private_address', message: 'must not point to a private, loopback, link-local or reserved address' },
    };
  }
  return ok(url.href);
}
