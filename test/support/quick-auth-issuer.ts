/**
 * A local Farcaster Quick Auth issuer for tests: a loopback HTTP server serving its key set at
 * `/.well-known/jwks.json` (where `@farcaster/quick-auth` looks, under the configured origin) and
 * signing tokens the way Farcaster's server does (issuer: the origin, audience: the app's domain,
 * subject: the fid). A double only because this machine cannot reach Farcaster's server; the
 * oracle verifies with the real library either way.
 *
 * Given an OP Mainnet RPC (`farcasterRpcUrl`), it also answers a Mini App SDK's Quick Auth calls as
 * Farcaster's server does: `POST /nonce` and `POST /verify-siwf` (the SIWF message the client
 * signed, verified with @farcaster/auth-client against the fid registries, for one of its own
 * nonces, used once), answered with a token for the message's domain. CORS is open, as the SDK
 * calls it from the Mini App's page.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAppClient, viemConnector } from '@farcaster/auth-client';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { CryptoKey } from 'jose';
import { parseSiweMessage } from 'viem/siwe';

export interface QuickAuthIssuer {
  readonly origin: string;
  /** A token for `fid` and `audience`; `expiresInSeconds` may be negative (already expired). */
  issue(options: { fid: number | bigint; audience: string; expiresInSeconds?: number; issuer?: string }): Promise<string>;
  /** A token signed by a key the key set does not hold (a forgery). */
  forge(options: { fid: number | bigint; audience: string }): Promise<string>;
  stop(): Promise<void>;
}

const ALG = 'EdDSA';

async function sign(
  key: CryptoKey,
  kid: string,
  claims: { fid: number | bigint; audience: string; issuer: string; expiresInSeconds: number },
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: ALG, kid })
    .setSubject(String(claims.fid))
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setIssuedAt(now - 5)
    .setExpirationTime(now + claims.expiresInSeconds)
    .sign(key);
}

const MAX_BODY_BYTES = 16_384;

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
      if (body.length > MAX_BODY_BYTES) req.destroy(new Error('body too large'));
    });
    req.on('end', () => {
      try {
        const parsed: unknown = JSON.parse(body);
        resolve(typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {});
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
  });
}

const answer = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify(body));

export async function startQuickAuthIssuer({ farcasterRpcUrl }: { farcasterRpcUrl?: string } = {}): Promise<QuickAuthIssuer> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519' });
  const forger = await generateKeyPair(ALG, { crv: 'Ed25519' });
  const kid = 'songmint-test-1';
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' }] });
  const farcaster = farcasterRpcUrl === undefined ? undefined : createAppClient({ ethereum: viemConnector({ rpcUrl: farcasterRpcUrl }) });
  const nonces = new Set<string>();
  let origin = '';

  /** Farcaster's /verify-siwf: a SIWF message for one of our nonces, verified on the registries, for a token. */
  async function verifySiwf(body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
    const { message, signature, domain } = body;
    if (farcaster === undefined || typeof message !== 'string' || typeof signature !== 'string' || typeof domain !== 'string')
      return { status: 400, body: { valid: false, message: 'message, signature and domain are required' } };
    const nonce = parseSiweMessage(message).nonce;
    if (nonce === undefined || !nonces.delete(nonce)) return { status: 200, body: { valid: false, message: 'unknown or used nonce' } };
    const verified = await farcaster.verifySignInMessage({
      nonce,
      domain,
      message,
      signature: signature as `0x${string}`,
      acceptAuthAddress: true,
    });
    if (verified.isError || !verified.success)
      return { status: 200, body: { valid: false, message: verified.error?.message ?? 'invalid' } };
    const token = await sign(privateKey, kid, { fid: verified.fid, audience: domain, issuer: origin, expiresInSeconds: 3600 });
    return { status: 200, body: { valid: true, token } };
  }

  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res
        .writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'GET, POST',
          'access-control-allow-headers': 'content-type',
        })
        .end();
      return;
    }
    if (req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
      return;
    }
    if (req.method === 'POST' && req.url === '/nonce') {
      const nonce = randomBytes(12).toString('hex');
      nonces.add(nonce);
      answer(res, 200, { nonce });
      return;
    }
    if (req.method === 'POST' && req.url === '/verify-siwf') {
      readJson(req)
        .then(verifySiwf)
        .then(
          (result) => answer(res, result.status, result.body),
          (error: unknown) => answer(res, 400, { valid: false, message: error instanceof Error ? error.message : String(error) }),
        );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    issue: ({ fid, audience, expiresInSeconds = 3600, issuer = origin }) =>
      sign(privateKey, kid, { fid, audience, issuer, expiresInSeconds }),
    forge: ({ fid, audience }) => sign(forger.privateKey, kid, { fid, audience, issuer: origin, expiresInSeconds: 3600 }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
