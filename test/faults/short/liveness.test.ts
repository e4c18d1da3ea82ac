/**
 * A slow client and a connection burst (issue 12, item 2): slowloris-style connections that send
 * partial headers and never finish, then 1,000 connections at once, against a real oracle
 * process. The oracle stays live: /health/live answers during both, and every burst connection is
 * answered (none hangs).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { livenessSchema } from '../../../oracle/src/http/schemas.ts';
import { recordFigure } from '../support/figures.ts';
import type { FaultCluster, OracleReplica } from '../support/cluster.ts';
import { httpRequest, startFaultCluster } from '../support/cluster.ts';

const SLOW_CLIENTS = 200;
const BURST = 1000;

function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

async function assertLive(oracle: OracleReplica): Promise<void> {
  const live = await httpRequest(`${oracle.url}/health/live`, { timeoutMs: 10_000 });
  assert.equal(live.status, 200);
  assert.ok(livenessSchema.safeParse(live.body).success, live.text);
}

describe('slow clients and a connection burst', { timeout: 300_000 }, () => {
  let cluster: FaultCluster;
  let oracle: OracleReplica;
  before(async () => {
    cluster = await startFaultCluster();
    const first = cluster.oracles[0];
    assert.ok(first !== undefined);
    oracle = first;
  });
  after(async () => {
    await cluster?.stop();
  });

  it(`${SLOW_CLIENTS} clients trickling partial headers do not stop /health/live`, async () => {
    const sockets = await Promise.all(Array.from({ length: SLOW_CLIENTS }, () => openSocket(oracle.url)));
    const closed = sockets.map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())));
    for (const socket of sockets) {
      socket.on('error', () => undefined);
      socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    }
    const trickle = setInterval(() => {
      for (const socket of sockets) if (!socket.destroyed) socket.write('a');
    }, 1000);
    try {
      for (let i = 0; i < 3; i++) {
        await assertLive(oracle);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } finally {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    }
    await Promise.all(closed);
    await assertLive(oracle);
  });

  it(`a burst of ${BURST} connections at once: every one is answered or refused, never hung, and the oracle stays live`, async () => {
    const started = Date.now();
    const results = await Promise.allSettled(
      Array.from({ length: BURST }, () => httpRequest(`${oracle.url}/health/live`, { timeoutMs: 60_000 })),
    );
    const answered = results.filter((result) => result.status === 'fulfilled' && result.value.status === 200).length;
    const refused = results.filter((result) => result.status === 'rejected');
    for (const result of refused)
      assert.ok(!/aborted due to timeout/i.test(String(result.reason)), `a request hung: ${String(result.reason)}`);
    assert.ok(answered >= BURST * 0.9, `${answered} of ${BURST} answered`);
    await assertLive(oracle);
    recordFigure('connection-burst', { connections: BURST, answered, refused: refused.length, seconds: (Date.now() - started) / 1000 });
  });
});
