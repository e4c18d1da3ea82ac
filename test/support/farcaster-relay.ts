/**
 * A local AuthKit relay for tests: the loopback double of Farcaster's relay (relay.farcaster.xyz)
 * answering `@farcaster/auth-client`'s app calls as the real one does (`POST /v1/channel`, then
 * `GET /v1/channel/status` with the channel token, 202 while pending, 200 once the user's Farcaster
 * client answered). The test plays the Farcaster client with `approve`. A double only because this
 * machine cannot reach Farcaster's relay; the app runs its real client code against it.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RelayChannel {
  channelToken: string;
  url: string;
  nonce: string;
  domain: string;
  siweUri: string;
}

export interface FarcasterRelay {
  readonly url: string;
  /** Channels opened so far, oldest first. */
  channels(): RelayChannel[];
  /** The Farcaster client's answer: the signed SIWF message for the channel. */
  approve(channelToken: string, answer: { message: string; signature: string; fid: number; username?: string }): void;
  stop(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST',
  'access-control-allow-headers': 'authorization, content-type',
};
const MAX_BODY_BYTES = 16_384;

const answer = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify(body));

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

export async function startFarcasterRelay(): Promise<FarcasterRelay> {
  const channels: RelayChannel[] = [];
  const answers = new Map<string, { message: string; signature: string; fid: number; username?: string }>();
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS).end();
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/channel') {
      readJson(req).then(
        (body) => {
          const { nonce, domain, siweUri } = body;
          if (typeof nonce !== 'string' || typeof domain !== 'string' || typeof siweUri !== 'string') {
            answer(res, 400, { error: 'nonce, domain and siweUri are required' });
            return;
          }
          const channelToken = randomBytes(16).toString('hex');
          const url = `https://farcaster.xyz/~/siwf?channelToken=${channelToken}`;
          channels.push({ channelToken, url, nonce, domain, siweUri });
          answer(res, 201, { channelToken, url, nonce });
        },
        () => answer(res, 400, { error: 'not JSON' }),
      );
      return;
    }
    if (req.method === 'GET' && req.url === '/v1/channel/status') {
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      const channel = channels.find((candidate) => candidate.channelToken === token);
      if (channel === undefined) {
        answer(res, 401, { error: 'unknown channel' });
        return;
      }
      const approved = answers.get(channel.channelToken);
      if (approved === undefined) answer(res, 202, { state: 'pending', nonce: channel.nonce, url: channel.url });
      else answer(res, 200, { state: 'completed', nonce: channel.nonce, url: channel.url, authMethod: 'custody', ...approved });
      return;
    }
    answer(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    channels: () => [...channels],
    approve(channelToken, approved) {
      answers.set(channelToken, approved);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
