import type { AppContext } from './context.ts';

/** ipfs://<cid> through this stack's gateway (GET /ipfs/<cid>); other URLs as they are. */
export function gatewayUrl(context: Pick<AppContext, 'config'>, uri: string): string {
  return uri.startsWith('ipfs://') ? `${context.config.apiUrl}/ipfs/${uri.slice('ipfs://'.length)}` : uri;
}
