import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { servedOpenApiDocument } from '../../oracle/src/http/served-openapi.ts';
import { API_ROUTES, routeCharges } from '../../oracle/src/http/route-table.ts';

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, unknown>;
}

const document = servedOpenApiDocument() as { servers?: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);

/** What the route table makes of /openapi.json; `npm run lint` runs redocly's recommended rules on it too. */
describe('the served OpenAPI document, built from the route table', () => {
  it('holds every route of the table once, and nothing else', () => {
    assert.deepEqual(
      operations.map((entry) => entry.key).sort(),
      API_ROUTES.map((route) => `${route.method.toUpperCase()} ${route.path}`).sort(),
    );
    assert.equal(new Set(API_ROUTES.map((route) => route.operationId)).size, API_ROUTES.length, 'operationIds are unique');
  });

  it('names each operation and declares its security: the bearer scheme where the table takes a token, none elsewhere', () => {
    for (const route of API_ROUTES) {
      const operation = document.paths[route.path]?.[route.method];
      assert.equal(operation?.operationId, route.operationId);
      assert.deepEqual(operation.security, route.auth === 'bearer' ? [{ bearer: [] }] : [], route.operationId);
    }
    assert.ok((document.servers?.length ?? 0) > 0, 'servers is not empty');
  });

  // Stands in for redocly's operation-4xx-response (off in redocly.yaml for the monitoring routes).
  it('documents 401 on each route that takes a token and 429 on each that charges a limit', () => {
    for (const route of API_ROUTES) {
      const responses = document.paths[route.path]?.[route.method]?.responses ?? {};
      if (route.auth === 'bearer') assert.ok('401' in responses, `${route.operationId} documents 401`);
      if (route.charge.by !== 'nothing') assert.ok('429' in responses, `${route.operationId} documents 429`);
    }
  });

  it('derives the charge of each route from the table (docs/api.md categories)', () => {
    const charges = routeCharges();
    assert.equal(charges.get('GET /api/generate/{job_id}'), 'general');
    assert.equal(charges.get('POST /api/generate'), 'generation');
    assert.equal(charges.get('POST /v1/music/generate'), 'generation');
    assert.equal(charges.get('POST /api/signature'), 'metadata_nft');
    assert.equal(charges.get('GET /v1/trading/pools'), 'trading');
    assert.equal(charges.get('POST /api/previews'), 'preview');
    assert.equal(charges.get('GET /health'), null);
  });
});
