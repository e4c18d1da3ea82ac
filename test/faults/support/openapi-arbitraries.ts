/**
 * fast-check arbitraries of HTTP requests derived from an OpenAPI 3.1 document at run time: each
 * operation's path parameters, query parameters and JSON body (near its schema, or deliberately
 * off it), with every kind of token and content type.
 */
import fc from 'fast-check';
import type { Arbitrary } from 'fast-check';

export type JsonSchema = { [key: string]: unknown };

export interface Operation {
  /** `METHOD /path/{param}` */
  id: string;
  method: string;
  path: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: JsonSchema }>;
  body: JsonSchema | undefined;
}

export interface FuzzRequest {
  operation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, JsonSchema>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolveRefs(schema: unknown, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return {};
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && depth < 8) return resolveRefs(components[ref.replace('#/components/schemas/', '')], components, depth + 1);
  return schema as JsonSchema;
}

/** Every operation of the document, with its schemas' references resolved. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const components = document.components?.schemas ?? {};
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as
        | {
            parameters?: Array<{ name: string; in: string; schema?: unknown }>;
            requestBody?: { content?: Record<string, { schema?: unknown }> };
          }
        | undefined;
      if (operation === undefined) continue;
      const parameters = operation.parameters ?? [];
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
      const queryParams = parameters
        .filter((p) => p.in === 'query')
        .map((p) => ({ name: p.name, schema: resolveRefs(p.schema, components) }));
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams,
        queryParams,
        body: bodySchema === undefined ? undefined : resolveWithComponents(bodySchema, components),
      });
    }
  }
  return operations;
}

/** The schema with `$ref`s replaced (bounded depth: recursive schemas end in `{}`). */
function resolveWithComponents(schema: unknown, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (depth > 6) return {};
  const resolved = resolveRefs(schema, components);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(resolved)) {
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, resolveWithComponents(property, components, depth + 1)]),
      );
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = value.map((member) => resolveWithComponents(member, components, depth + 1));
    } else if (key === 'items') {
      out[key] = resolveWithComponents(value, components, depth + 1);
    } else {
      out[key] = value;
    }
  }
  return out;
}

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

const awkwardStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'null',
  '0x',
  `0x${'0'.repeat(64)}`,
  `0x${'f'.repeat(40)}`,
  'ipfs://',
  'ipfs://bafkreigkdxcfmhh35l3u3f3bhn5gtlmaqbjdhrx5wnyj2r7eqpyi7afudq',
  'http://127.0.0.1/x.mp3',
  'data:image/png;base64,AAAA',
  '\u{1F3B5}'.repeat(300),
  'a'.repeat(600),
  '../../etc/passwd',
  '<script>',
  "' OR 1=1 --",
);

function stringFor(schema: JsonSchema): Arbitrary<string> {
  const options: Array<Arbitrary<string>> = [fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), awkwardStrings];
  if (typeof schema.example === 'string') options.push(fc.constant(schema.example));
  if (typeof schema.pattern === 'string') {
    try {
      options.push(fc.stringMatching(new RegExp(schema.pattern)).filter((value) => value.length <= 200));
    } catch {
      // a pattern JavaScript cannot read: the other strings still cover the field
    }
  }
  if (schema.format === 'uri') options.push(fc.webUrl());
  if (schema.format === 'date-time') options.push(fc.date({ noInvalidDate: true }).map((date) => date.toISOString()));
  return fc.oneof(...options);
}

function numberFor(schema: JsonSchema): Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
  const near = fc.integer({
    min: Math.max(Number.MIN_SAFE_INTEGER, Math.floor(min) - 3),
    max: Math.min(Number.MAX_SAFE_INTEGER, Math.ceil(max) + 3),
  });
  return fc.oneof(near, near, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53, 0.5));
}

/** A JSON value near `schema`; one time in eight something else entirely. */
export function valueFor(schema: JsonSchema, depth = 0): Arbitrary<unknown> {
  const wrong = fc.jsonValue({ maxDepth: 2 });
  if (depth > 4) return wrong;
  let near: Arbitrary<unknown>;
  const members = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(members) && members.length > 0) {
    near = fc.oneof(...members.map((member) => valueFor(member, depth + 1)));
  } else if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    near = fc.constantFrom(...(schema.enum as unknown[]));
  } else if (schema.const !== undefined) {
    near = fc.constant(schema.const);
  } else {
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string':
        near = stringFor(schema);
        break;
      case 'integer':
      case 'number':
        near = numberFor(schema);
        break;
      case 'boolean':
        near = fc.boolean();
        break;
      case 'array':
        near = fc.array(valueFor((schema.items as JsonSchema | undefined) ?? {}, depth + 1), { maxLength: 4 });
        break;
      case 'object': {
        const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
        const entries = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueFor(property, depth + 1)]));
        near = fc
          .tuple(
            fc.record(entries, { requiredKeys: [] }),
            fc.option(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), { freq: 4 }),
          )
          .map(([known, extra]) => ({ ...known, ...(extra ?? {}) }));
        break;
      }
      default:
        near = wrong;
    }
  }
  return fc.oneof({ arbitrary: near, weight: 7 }, { arbitrary: wrong, weight: 1 });
}

function bodyFor(operation: Operation): Arbitrary<string | undefined> {
  const text = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.constantFrom('{', '{"a":', '[]', 'null', '{"__proto__":{"x":1}}', '{"prompt":"x","prompt":"y"}', '1e999'),
  );
  const json = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value));
  if (operation.body === undefined)
    return fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: json, weight: 1 }, { arbitrary: text, weight: 1 });
  return fc.oneof(
    { arbitrary: valueFor(operation.body).map((value) => JSON.stringify(value) ?? 'null'), weight: 8 },
    { arbitrary: json, weight: 1 },
    { arbitrary: text, weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

const pathValue = fc.oneof(
  fc.uuid().map((id) => `gen_${id}`),
  fc.uuid(),
  fc.nat().map(String),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '0',
    '-1',
    '99999999999999999999999',
    '0x',
    'null',
    '%',
    '..',
    'gen_',
    `0x${'a'.repeat(64)}`,
    'bafkreigkdxcfmhh35l3u3f3bhn5gtlmaqbjdhrx5wnyj2r7eqpyi7afudq',
  ),
);

function tokenHeader(tokens: readonly string[]): Arbitrary<string | undefined> {
  const valid = fc.constantFrom(...tokens);
  return fc.oneof(
    { arbitrary: valid.map((token) => `Bearer ${token}`), weight: 6 },
    { arbitrary: fc.constant(undefined), weight: 2 },
    { arbitrary: valid.map((token) => `Bearer ${token.slice(0, -2)}${token.endsWith('A') ? 'B' : 'A'}x`), weight: 1 },
    {
      arbitrary: valid.map(
        (token) =>
          `Bearer ${token
            .split('.')
            .map((part, i) => (i === 1 ? Buffer.from('{"sub":"x","exp":1}').toString('base64url') : part))
            .join('.')}`,
      ),
      weight: 1,
    },
    { arbitrary: printable(60).map((text) => `Bearer ${text}`), weight: 1 },
    { arbitrary: printable(60), weight: 1 },
    { arbitrary: fc.constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'bearer  ', 'Bearer eyJhbGciOiJub25lIn0.e30.'), weight: 1 },
  );
}

/** One request to one of `operations`, signed in with one of `tokens` or not at all. */
export function requestArbitrary(operations: readonly Operation[], tokens: readonly string[]): Arbitrary<FuzzRequest> {
  return fc.constantFrom(...operations).chain((operation) =>
    fc
      .record({
        params: fc.tuple(...operation.pathParams.map(() => pathValue)),
        query: fc.record(
          Object.fromEntries(
            operation.queryParams.map((param) => [
              param.name,
              valueFor(param.schema).map((value) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))),
            ]),
          ),
          { requiredKeys: [] },
        ),
        junkQuery: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20 }), { maxKeys: 2 }), { freq: 4 }),
        authorization: tokenHeader(tokens),
        contentType: fc.oneof(
          { arbitrary: fc.constant('application/json'), weight: 6 },
          {
            arbitrary: fc.constantFrom(
              'text/plain',
              'application/json; charset=utf-16',
              'application/x-www-form-urlencoded',
              'multipart/form-data',
            ),
            weight: 1,
          },
          { arbitrary: printable(30), weight: 1 },
        ),
        extraHeaders: fc.dictionary(
          fc.constantFrom(
            'accept',
            'accept-encoding',
            'accept-language',
            'content-encoding',
            'cookie',
            'range',
            'if-match',
            'if-modified-since',
            'idempotency-key',
            'x-forwarded-for',
            'x-forwarded-proto',
            'x-forwarded-host',
            'origin',
            'if-none-match',
            'last-event-id',
            'x-request-id',
          ),
          printable(80),
          { maxKeys: 3 },
        ),
        body: bodyFor(operation),
      })
      .map(({ params, query, junkQuery, authorization, contentType, extraHeaders, body }) => {
        let path = operation.path;
        operation.pathParams.forEach((name, index) => {
          path = path.replace(`{${name}}`, encodeURIComponent(params[index] ?? ''));
        });
        const search = new URLSearchParams({ ...(junkQuery ?? {}), ...(query as Record<string, string>) }).toString();
        const headers: Record<string, string> = { ...extraHeaders };
        if (authorization !== undefined) headers.authorization = authorization;
        // fetch sends no body with GET (nor does a browser).
        const sent = operation.method === 'GET' ? undefined : body;
        if (sent !== undefined) headers['content-type'] = contentType;
        return { operation: operation.id, method: operation.method, path: search === '' ? path : `${path}?${search}`, headers, body: sent };
      }),
  );
}
