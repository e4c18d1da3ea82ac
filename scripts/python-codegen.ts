/**
 * The Python client's generated module (clients/python/src/songmint/_generated.py), rendered from
 * the oracle's OpenAPI document (built in-process, as the SDK's generator does): a TypedDict or
 * type alias per component schema, the operation table, a typed method per operation for the sync
 * and the async client, the ErrorCode list and a fingerprint of every schema and operation (the
 * pytest suite compares them with a running oracle's /openapi.json). scripts/generate-python-client.ts
 * writes it; test/clients/python-generated.test.ts fails when the checked-in file differs.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PYTHON_GENERATED_FILE = `${ROOT}clients/python/src/songmint/_generated.py`;

/** The subset of JSON Schema (OpenAPI 3.1) the oracle's zod schemas produce. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  prefixItems?: Schema[];
  description?: string;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  description?: string;
}

interface MediaType {
  schema?: Schema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
  security?: Array<Record<string, unknown>>;
}

export interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** `JSON.stringify` with sorted keys and no spaces: the same text as Python's `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const fingerprint = (value: unknown) => createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16);

const pascal = (text: string) =>
  text
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** camelCase, kebab-case and Header-Case to snake_case. */
export function snake(text: string): string {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(' ');
  const name = words.join('_');
  return PYTHON_KEYWORDS.has(name) ? `${name}_` : name;
}

const pyString = (text: string) => JSON.stringify(text);

/** Wraps prose into `# ` comment lines (or docstring lines) of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      if (line !== '' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line === '' ? word : `${line} ${word}`;
    }
    if (line !== '') lines.push(line);
  }
  return lines;
}

/** A docstring body safe inside triple quotes. */
const docText = (text: string) => text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');

class PythonTypes {
  /** Definitions in dependency order. */
  private readonly definitions: string[] = [];
  private readonly defined = new Set<string>();
  private readonly taken = new Set<string>();
  private readonly components: Record<string, Schema>;

  constructor(components: Record<string, Schema>) {
    this.components = components;
    for (const name of Object.keys(components)) this.taken.add(name);
  }

  text(): string {
    return this.definitions.join('\n\n\n');
  }

  private uniqueName(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.taken.has(name); n++) name = `${wanted}${n}`;
    this.taken.add(name);
    return name;
  }

  /** Defines a component schema (once), its dependencies first. */
  component(name: string): string {
    if (this.defined.has(name)) return name;
    const schema = this.components[name];
    if (schema === undefined) throw new Error(`$ref to a missing schema: ${name}`);
    this.defined.add(name);
    this.define(name, schema);
    return name;
  }

  /** Defines `schema` as `name` (a TypedDict for an object with properties, else an alias). */
  private define(name: string, schema: Schema): void {
    if (isObjectWithProperties(schema)) {
      this.definitions.push(this.typedDict(name, schema));
      return;
    }
    const expression = this.expression(schema, name, true);
    const doc =
      schema.description === undefined
        ? ''
        : `\n${wrap(schema.description, 96)
            .map((line) => `# ${line}`)
            .join('\n')}`;
    // Quoted: a type checker reads it as written, and the runtime never evaluates a forward reference.
    this.definitions.push(
      `${doc.trimStart()}${doc === '' ? '' : '\n'}${name}: TypeAlias = ${expression.includes("'") ? pyString(expression) : `'${expression}'`}`,
    );
  }

  private typedDict(name: string, schema: Schema): string {
    const required = new Set(schema.required ?? []);
    const fields: string[] = [];
    const properties = Object.entries(schema.properties ?? {});
    const identifiers = properties.every(([key]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !PYTHON_KEYWORDS.has(key));
    const entries: Array<{ key: string; type: string; description?: string }> = [];
    for (const [key, property] of properties) {
      const type = this.expression(property, `${name}${pascal(key)}`, false);
      entries.push({ key, type: required.has(key) ? type : `NotRequired[${type}]`, description: property.description });
    }
    if (!identifiers) {
      const body = entries.map(({ key, type }) => `    ${pyString(key)}: ${type},`).join('\n');
      return `${name} = TypedDict(${pyString(name)}, {\n${body}\n})`;
    }
    for (const { key, type, description } of entries) {
      if (description !== undefined) fields.push(...wrap(description, 92).map((line) => `    # ${line}`));
      fields.push(`    ${key}: ${type}`);
    }
    const doc = schema.description === undefined ? [] : [`    """${docText(wrap(schema.description, 92).join('\n    '))}"""`, ''];
    const body = fields.length === 0 ? ['    pass'] : fields;
    return [`class ${name}(TypedDict):`, ...doc, ...body].join('\n');
  }

  /** `allOf`: one part as itself; object parts (inline or \`$ref\`) merged into one object. */
  private merged(parts: Schema[], hint: string): Schema {
    if (parts.length === 1 && parts[0] !== undefined) return parts[0];
    const objects = parts.map((part) =>
      part.$ref === undefined ? part : (this.components[part.$ref.replace('#/components/schemas/', '')] ?? {}),
    );
    if (!objects.every((part) => part.properties !== undefined))
      throw new Error(`unsupported allOf at ${hint}: only objects with properties can be merged`);
    return {
      type: 'object',
      properties: Object.assign({}, ...objects.map((part) => part.properties)) as Record<string, Schema>,
      required: objects.flatMap((part) => part.required ?? []),
    };
  }

  /** The Python type of `schema`; inline objects and unions become definitions named from `hint`. */
  expression(schema: Schema, hint: string, topLevel = false): string {
    if (schema.$ref !== undefined) return this.component(schema.$ref.replace('#/components/schemas/', ''));
    const union = schema.anyOf ?? schema.oneOf;
    if (union !== undefined) {
      const parts = union.map((branch, index) => {
        if (isObjectWithProperties(branch)) {
          const tag = discriminator(branch);
          const branchName = this.uniqueName(`${hint}${tag === undefined ? `Option${index + 1}` : pascal(tag)}`);
          this.definitions.push(this.typedDict(branchName, branch));
          return branchName;
        }
        return this.expression(branch, `${hint}Option${index + 1}`);
      });
      return unionOf(parts);
    }
    if (schema.allOf !== undefined) return this.expression(this.merged(schema.allOf, hint), hint, topLevel);
    if (schema.const !== undefined) return this.expression({ ...schema, const: undefined, enum: [schema.const] }, hint, topLevel);
    if (schema.enum !== undefined) {
      const literals = schema.enum.map((value) =>
        value === null ? 'None' : typeof value === 'string' ? pyString(value) : JSON.stringify(value),
      );
      return `Literal[${literals.join(', ')}]${Array.isArray(schema.type) && schema.type.includes('null') && !schema.enum.includes(null) ? ' | None' : ''}`;
    }
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
    if (types.length === 0) return 'JsonValue';
    return unionOf(types.map((type) => this.single(type, schema, hint, topLevel)));
  }

  private single(type: string, schema: Schema, hint: string, topLevel: boolean): string {
    switch (type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        if (schema.prefixItems !== undefined)
          return `tuple[${schema.prefixItems.map((item, index) => this.expression(item, `${hint}Item${index + 1}`)).join(', ')}]`;
        return `list[${schema.items === undefined ? 'JsonValue' : this.expression(schema.items, `${hint}Item`)}]`;
      case 'object': {
        if (schema.properties !== undefined) {
          // A nullable object named by its component: the object is `<Name>Fields`, the component `<Name>Fields | None`.
          const name = this.uniqueName(topLevel ? `${hint}Fields` : hint);
          this.definitions.push(this.typedDict(name, schema));
          return name;
        }
        const values = schema.additionalProperties;
        return `dict[str, ${typeof values === 'object' ? this.expression(values, `${hint}Value`) : 'JsonValue'}]`;
      }
      default:
        throw new Error(`unsupported schema type ${type} at ${hint}`);
    }
  }
}

function isObjectWithProperties(schema: Schema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.length === 1 && types[0] === 'object' && schema.properties !== undefined && schema.anyOf === undefined;
}

/** The value of a required single-valued string enum property: names a branch of a union (`status: "queued"`). */
function discriminator(schema: Schema): string | undefined {
  for (const key of schema.required ?? []) {
    const values = schema.properties?.[key]?.enum;
    if (values?.length === 1 && typeof values[0] === 'string') return values[0];
  }
  return undefined;
}

function unionOf(parts: string[]): string {
  const unique = [...new Set(parts)];
  const withoutNone = unique.filter((part) => part !== 'None');
  const ordered = unique.includes('None') ? [...withoutNone, 'None'] : withoutNone;
  return ordered.join(' | ');
}

interface OperationModel {
  id: string;
  method: string;
  path: string;
  summary: string;
  authenticated: boolean;
  pathParams: Array<{ name: string; python: string; type: string }>;
  queryParams: Array<{ name: string; python: string; type: string; required: boolean }>;
  headerParams: Array<{ name: string; python: string; type: string; required: boolean }>;
  body?: { type: string; contentTypes: string[]; binary: boolean; required: boolean };
  result: { kind: 'json' | 'text' | 'bytes' | 'events' | 'empty'; type: string };
  notModified: boolean;
}

function operationModel(types: PythonTypes, path: string, method: string, operation: Operation): OperationModel {
  const id = operation.operationId;
  if (id === undefined) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
  const hint = pascal(id);
  const params = operation.parameters ?? [];
  const param = (p: Parameter) => ({
    name: p.name,
    python: snake(p.name),
    type: p.schema === undefined ? 'str' : types.expression(p.schema, `${hint}${pascal(p.name)}`),
    required: p.required === true,
  });
  let body: OperationModel['body'];
  if (operation.requestBody !== undefined) {
    const contentTypes = Object.keys(operation.requestBody.content);
    const json = operation.requestBody.content['application/json'];
    const binary = json === undefined;
    body = {
      type: binary ? 'bytes' : json.schema === undefined ? 'JsonValue' : types.expression(json.schema, `${hint}Request`),
      contentTypes,
      binary,
      required: operation.requestBody.required !== false,
    };
  }
  const successes = Object.entries(operation.responses).filter(([status]) => /^2\d\d$/.test(status));
  const jsonTypes: string[] = [];
  let kind: OperationModel['result']['kind'] = 'empty';
  for (const [status, response] of successes) {
    const content = response.content ?? {};
    if ('text/event-stream' in content) kind = 'events';
    else if ('application/json' in content) {
      kind = 'json';
      const schema = content['application/json']?.schema;
      jsonTypes.push(schema === undefined ? 'JsonValue' : types.expression(schema, `${hint}Response${successes.length > 1 ? status : ''}`));
    } else if (Object.keys(content).some((type) => type.startsWith('text/'))) kind = 'text';
    else if (Object.keys(content).length > 0) kind = 'bytes';
  }
  const type = { json: unionOf(jsonTypes), text: 'str', bytes: 'bytes', events: 'ServerSentEvent', empty: 'None' }[kind];
  return {
    id,
    method: method.toUpperCase(),
    path,
    summary: operation.summary ?? operation.description?.split('\n')[0] ?? '',
    authenticated: (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0),
    pathParams: params.filter((p) => p.in === 'path').map(param),
    queryParams: params.filter((p) => p.in === 'query').map(param),
    headerParams: params.filter((p) => p.in === 'header').map(param),
    body,
    result: { kind, type },
    notModified: '304' in operation.responses,
  };
}

function operationsOf(document: OpenApiDocument): Array<{ path: string; method: string; operation: Operation }> {
  const list: Array<{ path: string; method: string; operation: Operation }> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation !== undefined) list.push({ path, method, operation });
    }
  }
  return list.sort((a, b) => (a.operation.operationId ?? '').localeCompare(b.operation.operationId ?? ''));
}

const tuple = (items: string[]) => (items.length === 0 ? '()' : `(${items.map(pyString).join(', ')}${items.length === 1 ? ',' : ''})`);

function renderOperationEntry(op: OperationModel): string {
  const fields = [
    `operation_id=${pyString(op.id)}`,
    `method=${pyString(op.method)}`,
    `path=${pyString(op.path)}`,
    `authenticated=${op.authenticated ? 'True' : 'False'}`,
    `path_params=${tuple(op.pathParams.map((p) => p.name))}`,
    `query_params=${tuple(op.queryParams.map((p) => p.name))}`,
    `header_params=${tuple(op.headerParams.map((p) => p.name))}`,
    `body_content_types=${tuple(op.body?.contentTypes ?? [])}`,
    `result=${pyString(op.result.kind)}`,
  ];
  return `    ${pyString(op.id)}: Operation(\n${fields.map((field) => `        ${field},`).join('\n')}\n    ),`;
}

/** The method of one operation, for the sync (`def`) or async (`async def`) client. */
function renderMethod(op: OperationModel, flavour: 'sync' | 'async'): string {
  const name = snake(op.id);
  const positional = op.pathParams.map((p) => `${p.python}: ${p.type}`);
  if (op.body !== undefined) positional.push(`body: ${op.body.type}${op.body.required ? '' : ' | None = None'}`);
  const keyword: string[] = [];
  if (op.body?.binary === true) {
    const types = op.body.contentTypes.map(pyString);
    keyword.push(`content_type: Literal[${types.join(', ')}] = ${pyString(op.body.contentTypes.at(-1) ?? 'application/octet-stream')}`);
  }
  for (const p of [...op.queryParams, ...op.headerParams]) {
    keyword.push(p.required ? `${p.python}: ${p.type}` : `${p.python}: ${p.type} | None = None`);
  }
  const signature = (kw: string[]) => ['self', ...positional, ...(kw.length > 0 ? ['*', ...kw] : [])].join(', ');
  const call = [
    `OPERATIONS[${pyString(op.id)}]`,
    `path={${op.pathParams.map((p) => `${pyString(p.name)}: ${p.python}`).join(', ')}}`,
    `query={${op.queryParams.map((p) => `${pyString(p.name)}: ${p.python}`).join(', ')}}`,
    `headers={${op.headerParams.map((p) => `${pyString(p.name)}: ${p.python}`).join(', ')}}`,
    ...(op.body === undefined ? [] : [op.body.binary ? 'content=body, content_type=content_type' : 'json=body']),
  ].join(', ');
  const doc = `        """${docText(`${op.method} ${op.path}${op.summary === '' ? '' : `: ${op.summary}`}`)}"""`;
  const def = flavour === 'async' ? 'async def' : 'def';
  const awaitWord = flavour === 'async' ? 'await ' : '';
  if (op.result.kind === 'events') {
    const iterator = flavour === 'async' ? 'AsyncIterator[ServerSentEvent]' : 'Iterator[ServerSentEvent]';
    return [`    def ${name}(${signature(keyword)}) -> ${iterator}:`, doc, `        return self._events(${call})`].join('\n');
  }
  const lines: string[] = [];
  const notModifiedHeader = op.headerParams.find((p) => p.name.toLowerCase() === 'if-none-match');
  if (op.notModified && notModifiedHeader !== undefined) {
    const others = keyword.filter((k) => !k.startsWith(`${notModifiedHeader.python}:`));
    lines.push(`    @overload`, `    ${def} ${name}(${signature(others)}) -> ${op.result.type}: ...`);
    lines.push(
      `    @overload`,
      `    ${def} ${name}(${signature([...others, `${notModifiedHeader.python}: str`])}) -> ${op.result.type} | None: ...`,
    );
    lines.push(`    ${def} ${name}(${signature(keyword)}) -> ${op.result.type} | None:`);
    lines.push(doc.replace(/"""$/, ` (None: 304 Not Modified, for \`${notModifiedHeader.python}\`)"""`));
    lines.push(`        return cast(${pyString(`${op.result.type} | None`)}, ${awaitWord}self._call(${call}))`);
    return lines.join('\n');
  }
  lines.push(`    ${def} ${name}(${signature(keyword)}) -> ${op.result.type}:`, doc);
  lines.push(`        return cast(${pyString(op.result.type)}, ${awaitWord}self._call(${call}))`);
  return lines.join('\n');
}

/** The generated module for `document` (the oracle's served OpenAPI document). */
export function renderPythonClient(document: OpenApiDocument): string {
  const schemas = document.components?.schemas ?? {};
  const types = new PythonTypes(schemas);
  for (const name of Object.keys(schemas).sort()) types.component(name);
  const operations = operationsOf(document).map(({ path, method, operation }) => operationModel(types, path, method, operation));
  const codes = schemas.ErrorCode?.enum;
  if (!Array.isArray(codes) || !codes.every((code) => typeof code === 'string'))
    throw new Error('the OpenAPI document has no ErrorCode enum of strings');
  const schemaPrints = Object.keys(schemas)
    .sort()
    .map((name) => `    ${pyString(name)}: ${pyString(fingerprint(schemas[name]))},`);
  const operationPrints = operationsOf(document).map(
    ({ path, method, operation }) =>
      `    ${pyString(operation.operationId ?? '')}: ${pyString(fingerprint({ method: method.toUpperCase(), path, operation }))},`,
  );
  const methods = (flavour: 'sync' | 'async') => operations.map((op) => renderMethod(op, flavour)).join('\n\n');
  return `# Generated from the oracle's /openapi.json by \`npm run python:generate\`.
# Do not edit: test/clients/python-generated.test.ts fails on drift, and the pytest suite
# (clients/python/tests/test_openapi_coverage.py) when a running oracle serves another document.
"""Types and operations of the Songmint API, generated from its OpenAPI document."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Mapping
from typing import Final, Literal, NotRequired, TypeAlias, TypedDict, cast, overload

from ._operation import Operation, ServerSentEvent

JsonValue: TypeAlias = "None | bool | int | float | str | list[JsonValue] | dict[str, JsonValue]"

#: \`info.version\` of the document this module was generated from: the API's version, which the
#: clients' versions follow (docs/clients.md, "Versions").
API_VERSION: Final = ${pyString(document.info.version)}

#: Every code the API answers with (docs/api.md, "Errors").
API_ERROR_CODES: Final[tuple[str, ...]] = (
${(codes as string[]).map((code) => `    ${pyString(code)},`).join('\n')}
)

${types.text()}


OPERATIONS: Final[Mapping[str, Operation]] = {
${operations.map(renderOperationEntry).join('\n')}
}

#: sha256 (16 hex digits) of each component schema's canonical JSON (sorted keys, no spaces).
SCHEMA_FINGERPRINTS: Final[Mapping[str, str]] = {
${schemaPrints.join('\n')}
}

#: sha256 (16 hex digits) of each operation's canonical JSON: {"method", "path", "operation"}.
OPERATION_FINGERPRINTS: Final[Mapping[str, str]] = {
${operationPrints.join('\n')}
}


class SyncOperations:
    """One method per operation of the API, for \`songmint.Client\`."""

    def _call(
        self,
        operation: Operation,
        *,
        path: Mapping[str, str],
        query: Mapping[str, object],
        headers: Mapping[str, str | None],
        json: object = None,
        content: bytes | None = None,
        content_type: str | None = None,
    ) -> object:
        raise NotImplementedError

    def _events(
        self, operation: Operation, *, path: Mapping[str, str], query: Mapping[str, object], headers: Mapping[str, str | None]
    ) -> Iterator[ServerSentEvent]:
        raise NotImplementedError

${methods('sync')}


class AsyncOperations:
    """One coroutine per operation of the API, for \`songmint.AsyncClient\`."""

    async def _call(
        self,
        operation: Operation,
        *,
        path: Mapping[str, str],
        query: Mapping[str, object],
        headers: Mapping[str, str | None],
        json: object = None,
        content: bytes | None = None,
        content_type: str | None = None,
    ) -> object:
        raise NotImplementedError

    def _events(
        self, operation: Operation, *, path: Mapping[str, str], query: Mapping[str, object], headers: Mapping[str, str | None]
    ) -> AsyncIterator[ServerSentEvent]:
        raise NotImplementedError

${methods('async')}
`;
}
