import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { BEARER_SCHEME, registerRoutes } from './route.ts';
import type { Route } from './route.ts';
import { registerWebhookDelivery } from './webhooks-openapi.ts';

/**
 * The API's version, `info.version` of its document: the one home of the version the clients
 * follow (`@songmint/sdk`, `@songmint/react` and the Python `songmint` take its major.minor;
 * docs/clients.md, "Versions"; test/clients/versions.test.ts checks them).
 */
export const API_VERSION = '1.0.0';

/**
 * The OpenAPI 3.1 document of the API, generated from the routes of the route table and their zod
 * schemas: each operation with its operationId and security (none for the public ones). `servers`
 * names the origin that serves the document, so it holds for any deployment.
 */
export function buildOpenApiDocument(routes: ReadonlyArray<Route>): object {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', BEARER_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Session token from POST /api/auth/verify.',
  });
  registerRoutes(registry, routes);
  registerWebhookDelivery(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Songmint API',
      version: API_VERSION,
      description:
        'Text-to-song generation, metadata upload and mint signatures. Variant A (job based, snake_case) and Variant B (`Prefer: wait`, camelCase) share /api/*; Variant C lives under /v1. Errors: Variant A `{error:{code,message,details,retry_after?,job_id?}}`, daily limit `{error:"rate_limit_exceeded",limit,reset_at}`, Variant C `{error,message,details}`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'The oracle serving this document.' }],
  });
}
