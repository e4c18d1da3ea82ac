import { buildOpenApiDocument } from './openapi.ts';
import type { OpenApiContribution } from './openapi.ts';
import { registerMetadataApi } from './routes/metadata.ts';
import { registerNftApi } from './routes/nft.ts';
import { registerPoolHistoryApi } from './routes/pool-history.ts';
import { registerPreviewApi } from './routes/previews.ts';
import { registerTradingApi } from './routes/trading.ts';
import { registerSignatureApi } from './routes/signature.ts';

/**
 * The paths of the routers oracle/src/main.ts mounts. Kept here so that the document can be built
 * without a database or a server (the SDK's type generator, scripts/generate-sdk.ts); the SDK's
 * end-to-end test checks it against what a running oracle serves at /openapi.json.
 */
export const SERVED_OPENAPI_CONTRIBUTIONS: ReadonlyArray<OpenApiContribution> = [registerMetadataApi, registerSignatureApi, registerNftApi, registerTradingApi, registerPreviewApi, registerPoolHistoryApi];

/** The document a running oracle serves at /openapi.json. */
export function servedOpenApiDocument(): object {
  return buildOpenApiDocument(SERVED_OPENAPI_CONTRIBUTIONS);
}
