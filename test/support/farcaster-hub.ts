/**
 * A loopback Farcaster hub for tests: `GET /v1/userDataByFid?fid=N` answered as a Snapchain or
 * Hubble node's HTTP API answers it (farcasterxyz/hub-monorepo
 * apps/hubble/www/docs/docs/httpapi/userdata.md; the list form of casts.md): every
 * UserDataAdd message of the fid, each with its `data` (type, fid, timestamp, network,
 * userDataBody) and its hash and signature fields, and `nextPageToken`. A double only because
 * this machine cannot reach a hub; the oracle's reader (oracle/src/domain/farcaster-user-data.ts)
 * takes the real hub's URL from FARCASTER_HUB_URL and reads it the same way. The signatures here
 * are not real Ed25519 signatures: the reader trusts its configured hub, as a hub's HTTP client
 * does, and checks none.
 *
 * `mode` makes it misbehave: `slow` answers after `delayMs`, `malformed` sends a body that is not
 * the shape, `huge` streams past any budget, `error` answers 500 as a hub does for a bad request.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HubMode = 'ok' | 'slow' | 'malformed' | 'huge' | 'error';

export interface HubUser {
  username?: string;
  display?: string;
  pfp?: string;
  bio?: string;
}

export interface TestFarcasterHub {
  readonly url: string;
  /** The fid's user data as the hub stores it. */
  setUser(fid: number, user: HubUser): void;
  setMode(mode: HubMode, delayMs?: number): void;
  /** `userDataByFid` requests answered or begun so far, per fid. */
  requests(fid: number): number;
  /** The `x-api-key` header of the last request. */
  lastApiKey(): string | undefined;
  stop(): Promise<void>;
}

/** The hub's names of the user data types (protobufs' UserDataType). */
const TYPES: Readonly<Record<keyof HubUser, string>> = {
  pfp: 'USER_DATA_TYPE_PFP',
  display: 'USER_DATA_TYPE_DISPLAY',
  bio: 'USER_DATA_TYPE_BIO',
  username: 'USER_DATA_TYPE_USERNAME',
};

function message(fid: number, type: string, value: string, timestamp: number) {
  const hash = `0x${createHash('sha256').update(`${fid}:${type}:${value}`).digest('hex').slice(0, 40)}`;
  return {
    data: { type: 'MESSAGE_TYPE_USER_DATA_ADD', fid, timestamp, network: 'FARCASTER_NETWORK_MAINNET', userDataBody: { type, value } },
    hash,
    hashScheme: 'HASH_SCHEME_BLAKE3',
    signature: Buffer.from(hash).toString('base64'),
    signatureScheme: 'SIGNATURE_SCHEME_ED25519',
    signer: `0x${'ab'.repeat(32)}`,
  };
}

export async function startTestFarcasterHub(): Promise<TestFarcasterHub> {
  const users = new Map<number, HubUser>();
  const counts = new Map<number, number>();
  let mode: HubMode = 'ok';
  let delay = 0;
  let apiKey: string | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub');
    apiKey = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined;
    if (req.method !== 'GET' || url.pathname !== '/v1/userDataByFid') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ errCode: 'not_found', presentable: false }));
      return;
    }
    const fid = Number(url.searchParams.get('fid'));
    counts.set(fid, (counts.get(fid) ?? 0) + 1);
    if (mode === 'error') {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ errCode: 'unavailable', presentable: false, name: 'HubError', code: 14, details: 'down', metadata: {} }));
      return;
    }
    if (mode === 'malformed') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"messages": {"not": "a list"}, "nextPageToken": 7');
      return;
    }
    if (mode === 'huge') {
      // 1000 messages (about 450 kB) in one write: far past any reader's budget at once.
      const filler = JSON.stringify(message(fid, TYPES.bio, 'x'.repeat(200), 1));
      res.on('error', () => undefined);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(`{"messages": [${Array.from({ length: 1000 }, () => filler).join(',')}], "nextPageToken": ""}`);
      return;
    }
    const user = users.get(fid) ?? {};
    const body = JSON.stringify({
      messages: (Object.keys(TYPES) as Array<keyof HubUser>).flatMap((key, index) => {
        const value = user[key];
        return value === undefined ? [] : [message(fid, TYPES[key], value, 100_000_000 + index)];
      }),
      nextPageToken: '',
    });
    const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (mode === 'slow') setTimeout(answer, delay).unref();
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setUser(fid, user) {
      users.set(fid, user);
    },
    setMode(next, delayMs = 0) {
      mode = next;
      delay = delayMs;
    },
    requests: (fid) => counts.get(fid) ?? 0,
    lastApiKey: () => apiKey,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
