/**
 * What an entry of the route table (./route-table.ts) is, and the one pipeline every entry runs:
 *
 *   bearer token (401) → before body (an upload's 415/429) → body (400/413) → input (400)
 *     → Idempotency-Key → charge → handler
 *
 * Input is validated before anything is charged or claimed, so bad input never counts; the
 * idempotency decision is a value: a request answered by it (a replay, a mismatch, a key still in
 * flight) is never charged. The charge is `chargeFor` (./charging.ts) with the entry's rule.
 * `publicRoute` and `bearerRoute` keep an entry's input and lookup types together and erase them
 * into a `Route`, so that one table holds entries of every type.
 */
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import express from 'express';
import type { Request, RequestHandler, Response } from 'express';
import type { AppError, Result } from '../domain/errors.ts';
import type { ChargedLookup, SessionUser } from '../domain/request-charge.ts';
import type { SessionClaims } from '../domain/session-token.ts';
import type { AdmissionCharge } from '../domain/generation.ts';
import { bearerClaims } from './auth.ts';
import { readRawBody } from './raw-body.ts';
import type { BodyRate } from './raw-body.ts';
import { chargeFor } from './charging.ts';
import type { ChargeRule } from './charging.ts';
import type { AppDeps } from './deps.ts';
import { sendError } from './error-response.ts';
import { decideIdempotency } from './idempotency.ts';
import type { IdempotencyOptions } from './idempotency.ts';

/** The document's name of the bearer scheme (./openapi.ts registers it). */
export const BEARER_SCHEME = 'bearer';

/** Bodies of most routes are small; a route that takes more says so (`body.limit`). */
export const DEFAULT_BODY_LIMIT = '64kb';

export interface BodyRule {
  /** Bytes, or a size such as '64kb'. */
  limit: string | number;
  raw?: boolean;
  /** A raw body's least rate (./raw-body.ts); none: Node's request timeout only. */
  minRate?: BodyRate;
}

/** What an entry adds to /openapi.json besides its method, path, operationId and security. */
export type RouteDocs = Omit<RouteConfig, 'method' | 'path' | 'operationId' | 'security'>;

type Handler<Call> = (call: Call) => Promise<void> | void;

interface RouteFields<Input> {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** The OpenAPI template (`/api/generate/{job_id}`); Express's `:job_id` is derived from it. */
  path: string;
  /** Unique; code generators name their methods by it. */
  operationId: string;
  docs: RouteDocs;
  /**
   * A body parser with this limit runs before the input check (routes that read a body): JSON, or
   * with `raw` the bytes as sent whatever their type (an upload), in `req.body` as a Buffer.
   */
  body?: BodyRule;
  /** Reads and validates path, query and body; an error answers 400 before anything is charged. */
  input?: (req: Request) => Result<Input, AppError>;
}

/**
 * A check of a bearer route that runs after the token and before the body is read: an error
 * answers the request unread and uncharged (an upload's `Content-Encoding`, its slot in flight).
 * What it holds it gives back on the response's `close`.
 */
export type BeforeBody = (call: { req: Request; res: Response; claims: SessionClaims }) => AppError | null;

export interface PublicCall<Input> {
  req: Request;
  res: Response;
  input: Input;
}

export interface SignedInCall<Input, Found> extends PublicCall<Input> {
  user: SessionUser;
  /** What the charge's lookup found (null: nothing, or no lookup). */
  found: Found | null;
  /** The charge a queue admission makes in its transaction (`admission` routes; null otherwise). */
  admission: AdmissionCharge | null;
}

export interface PublicRouteEntry<Input> extends RouteFields<Input> {
  charge: Extract<ChargeRule, { by: 'nothing' | 'ip' }>;
  /** The handler over `deps`; undefined when what it needs is not configured (the route is not mounted). */
  handle: (deps: AppDeps) => Handler<PublicCall<Input>> | undefined;
}

export interface BearerRouteEntry<Input, Found> extends RouteFields<Input> {
  charge: Extract<ChargeRule, { by: 'session' | 'admission' }>;
  /** A read of the caller's data made in the charge's statement (`session` charges only). */
  lookup?: (input: Input) => ChargedLookup<Found>;
  /** Honour `Idempotency-Key` (./idempotency.ts). */
  idempotency?: IdempotencyOptions;
  /** Runs before the body is read (`BeforeBody`); undefined when not configured. */
  beforeBody?: (deps: AppDeps) => BeforeBody | undefined;
  handle: (deps: AppDeps) => Handler<SignedInCall<Input, Found>> | undefined;
}

/** An entry of the route table with its types erased. */
export interface Route {
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  readonly path: string;
  readonly operationId: string;
  readonly auth: 'public' | 'bearer';
  readonly charge: ChargeRule;
  readonly idempotent: boolean;
  readonly docs: RouteDocs;
  /** The Express handlers of this route over `deps`, or undefined when it is not configured. */
  mount(deps: AppDeps): RequestHandler | undefined;
}

/** `/api/generate/{job_id}` → `/api/generate/:job_id`. */
export function expressPath(path: string): string {
  return path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

const noInput = (): Result<undefined, AppError> => ({ ok: true, value: undefined });

/**
 * The body parser of `body`, as a step that rejects with the parser's error (./error-handler.ts
 * answers it). A raw body is never inflated: its limit is on the bytes as sent.
 */
function bodyReader(body: BodyRule | undefined): (req: Request, res: Response) => Promise<void> {
  if (body === undefined) return async () => {};
  if (body.raw === true) {
    if (typeof body.limit !== 'number') throw new Error('a raw body limit is a number of bytes');
    const rule = { limit: body.limit, minRate: body.minRate };
    return (req, res) => readRawBody(req, res, rule);
  }
  const parse = express.json({ limit: body.limit });
  return (req, res) =>
    new Promise((resolve, reject) => {
      void parse(req, res, (error?: unknown) =>
        error === undefined || error === null ? resolve() : reject(error instanceof Error ? error : new Error(String(error))),
      );
    });
}

function readInput<Input>(entry: RouteFields<Input>, req: Request, res: Response): { input: Input } | null {
  const parsed = (entry.input ?? (noInput as () => Result<Input, AppError>))(req);
  if (!parsed.ok) {
    sendError(req, res, parsed.error);
    return null;
  }
  return { input: parsed.value };
}

/** A route without a session token: health, metrics, sign-in. */
export function publicRoute<Input = undefined>(entry: PublicRouteEntry<Input>): Route {
  return {
    method: entry.method,
    path: entry.path,
    operationId: entry.operationId,
    auth: 'public',
    charge: entry.charge,
    idempotent: false,
    docs: entry.docs,
    mount(deps) {
      const handle = entry.handle(deps);
      if (handle === undefined) return undefined;
      const readBody = bodyReader(entry.body);
      const serve: RequestHandler = async (req, res) => {
        await readBody(req, res);
        const read = readInput(entry, req, res);
        if (read === null) return;
        if ((await chargeFor(deps, entry.charge, { req, res, claims: null })) === null) return;
        await handle({ req, res, input: read.input });
      };
      return serve;
    },
  };
}

/** A route that takes a bearer session token (401 without a valid one) and charges its caller. */
export function bearerRoute<Input = undefined, Found = never>(entry: BearerRouteEntry<Input, Found>): Route {
  const route = `${entry.method.toUpperCase()} ${entry.path}`;
  const admission = entry.charge.by === 'admission' ? { category: entry.charge.category, daily: entry.charge.daily } : null;
  return {
    method: entry.method,
    path: entry.path,
    operationId: entry.operationId,
    auth: 'bearer',
    charge: entry.charge,
    idempotent: entry.idempotency !== undefined,
    docs: entry.docs,
    mount(deps) {
      const handle = entry.handle(deps);
      if (handle === undefined) return undefined;
      const claimsOf = bearerClaims(deps);
      const beforeBody = entry.beforeBody?.(deps);
      const readBody = bodyReader(entry.body);
      const serve: RequestHandler = async (req, res) => {
        // The token is checked before the body is read: an anonymous client cannot make us parse 8 MB.
        const claims = await claimsOf(req, res);
        if (claims === null) return;
        const refused = beforeBody?.({ req, res, claims }) ?? null;
        if (refused !== null) {
          sendError(req, res, refused);
          return;
        }
        await readBody(req, res);
        const read = readInput(entry, req, res);
        if (read === null) return;
        if (entry.idempotency !== undefined) {
          const decision = await decideIdempotency(deps, req, res, { route, userId: claims.userId }, entry.idempotency);
          if (decision.kind === 'answered') return;
        }
        const lookup = entry.lookup?.(read.input);
        const charged = await chargeFor(deps, entry.charge, { req, res, claims, lookup });
        if (charged === null) return;
        if (charged.user === null) throw new Error(`${route}: a bearer charge admitted no user`);
        await handle({ req, res, input: read.input, user: charged.user, found: charged.found, admission });
      };
      return serve;
    },
  };
}

/** Registers each route's operation: its docs, operationId and security (none on public routes). */
export function registerRoutes(registry: OpenAPIRegistry, routes: ReadonlyArray<Route>): void {
  for (const route of routes) {
    registry.registerPath({
      ...route.docs,
      method: route.method,
      path: route.path,
      operationId: route.operationId,
      security: route.auth === 'bearer' ? [{ [BEARER_SCHEME]: [] }] : [],
    });
  }
}
