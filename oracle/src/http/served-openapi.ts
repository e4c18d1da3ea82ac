import { buildOpenApiDocument } from './openapi.ts';
import { API_ROUTES } from './route-table.ts';

/**
 * The document a running oracle serves at /openapi.json, built without a database or a server
 * (the SDK's type generator, scripts/generate-sdk.ts, and `npm run lint`'s redocly check); the
 * SDK's end-to-end test checks it against what a running oracle serves.
 */
export function servedOpenApiDocument(): object {
  return buildOpenApiDocument(API_ROUTES);
}
