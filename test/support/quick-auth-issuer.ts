/**
 * A local Farcaster Quick Auth issuer for tests: a loopback HTTP server serving its key set at
 * `/.well-known/jwks.json` (where `@farcaster/quick-auth` looks, under the configured origin) and
 * signing tokens the way Farcaster's server does (issuer: the origin, audience: the app's domain,
 * subject: the fid). A double only because this machine cannot reach Farcaster's server; the
 * oracle verifies with the real library either way.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { CryptoKey } from 'jose';

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

export async function startQuickAuthIssuer(): Promise<QuickAuthIssuer> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { crv: 'Ed25519' });
  const forger = await generateKeyPair(ALG, { crv: 'Ed25519' });
  const kid = 'songmint-test-1';
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' }] });
  const server = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    issue: ({ fid, audience, expiresInSeconds = 3600, issuer = origin }) =>
      sign(privateKey, kid, { fid, audience, issuer, expiresInSeconds }),
    forge: ({ fid, audience }) => sign(forger.privateKey, kid, { fid, audience, issuer: origin, expiresInSeconds: 3600 }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
