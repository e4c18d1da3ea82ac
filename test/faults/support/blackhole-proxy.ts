/**
 * A TCP proxy between the stack and one component (PostgreSQL, the S3 server, the chain RPC) that
 * can, on command, stop forwarding without closing anything: a network partition or a stuck load
 * balancer as the stack sees it. While blackholed, bytes in either direction and the closes
 * behind them are held (the proxy stops reading, so TCP flow control holds the rest in the
 * kernels' buffers); new connections are accepted and held the same way. Nothing is answered,
 * nothing is reset. `heal()` lets everything held through, in order, as TCP's retransmissions
 * would after a partition shorter than its give-up time; `heal({ reset: true })` instead resets
 * every connection that was open during the blackhole, as after a longer one.
 */
import { createServer, connect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

export interface BlackholeProxy {
  /** The proxy's port on 127.0.0.1. */
  readonly port: number;
  /** Whether traffic is held now. */
  readonly blackholed: boolean;
  /** Stops forwarding in both directions, on open and new connections, without closing any. */
  blackhole(): void;
  /** Forwards again: what was held goes through, or with `reset` every held connection is reset. */
  heal(options?: { reset?: boolean }): void;
  /** Connections open through the proxy now. */
  connections(): number;
  close(): Promise<void>;
}

interface Pair {
  downstream: Socket;
  upstream: Socket;
}

/** Forwards `from` to `to` with backpressure, unless the proxy holds traffic. */
function forward(from: Socket, to: Socket, held: () => boolean): void {
  from.on('data', (chunk: Buffer) => {
    if (!to.write(chunk)) from.pause();
  });
  to.on('drain', () => {
    if (!held()) from.resume();
  });
  from.on('end', () => to.end());
  from.on('error', () => to.destroy());
  from.on('close', () => to.destroy());
}

export async function startBlackholeProxy(target: { host?: string; port: number }): Promise<BlackholeProxy> {
  const pairs = new Set<Pair>();
  let blackholed = false;
  const held = () => blackholed;

  const server: Server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, (downstream) => {
    const upstream = connect({ host: target.host ?? '127.0.0.1', port: target.port, allowHalfOpen: true });
    upstream.pause();
    const pair: Pair = { downstream, upstream };
    pairs.add(pair);
    forward(downstream, upstream, held);
    forward(upstream, downstream, held);
    downstream.once('close', () => pairs.delete(pair));
    if (!blackholed) {
      downstream.resume();
      upstream.resume();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    get blackholed() {
      return blackholed;
    },
    blackhole() {
      blackholed = true;
      for (const { downstream, upstream } of pairs) {
        downstream.pause();
        upstream.pause();
      }
    },
    heal({ reset = false } = {}) {
      blackholed = false;
      for (const { downstream, upstream } of [...pairs]) {
        if (reset) {
          downstream.resetAndDestroy();
          upstream.resetAndDestroy();
        } else {
          downstream.resume();
          upstream.resume();
        }
      }
    },
    connections: () => pairs.size,
    async close() {
      for (const { downstream, upstream } of pairs) {
        downstream.destroy();
        upstream.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
