/**
 * The security review's upload bombs (test/support/upload-bombs.ts) sent to a running stack as
 * an attacker would, 20 in a row from one free account: each must be refused with its code within
 * `REFUSE_WITHIN_MS`, the oracle process's peak resident memory must grow by less than
 * `PEAK_RSS_GROWTH_BOUND_MB` over all of them, and `/health/live` must answer throughout. The
 * memory is the real process's, read from /proc: its peak (VmHWM, reset through clear_refs
 * before the run, else sampled) against its resident size before.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createWalletClient, custom } from 'viem';
import { createSongmintApi, signIn } from '@songmint/sdk';
import { uploadBombs } from '../../support/upload-bombs.ts';
import type { UploadBomb } from '../../support/upload-bombs.ts';

/** The bound on the oracle's peak RSS growth over `BOMBS` bombs (before: 1.5 GB for one FLAC). */
export const PEAK_RSS_GROWTH_BOUND_MB = 64;
/** Each refusal within this (a safety bound on a shared 2-core machine, not a speed target: bench:uploads has the figures). */
export const REFUSE_WITHIN_MS = 15_000;
export const BOMBS = 20;

async function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (match === null) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/** Signs in a fresh wallet (a free account) through the SDK, as a dApp would. */
export async function signInFresh(baseUrl: string): Promise<string> {
  const walletClient = createWalletClient({
    account: privateKeyToAccount(generatePrivateKey()),
    transport: custom({ request: () => Promise.reject(new Error('no chain needed to sign a message')) }),
  });
  return (await signIn(createSongmintApi({ baseUrl }), { walletClient })).token;
}

export interface BombReport {
  rows: { name: string; status: number; code: string; ms: number }[];
  baselineMb: number;
  peakMb: number;
  healthProbes: number;
  worstHealthMs: number;
}

/** Sends the bombs to `baseUrl` (served by process `pid`), asserts each refusal and the bounds, and returns the figures. */
export async function checkUploadBombs(baseUrl: string, pid: number): Promise<BombReport> {
  const token = await signInFresh(baseUrl);
  const bombs = await uploadBombs();
  const send = async (bomb: UploadBomb) => {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'Songmint-Rights-Confirmed': 'true',
        'content-type': 'application/octet-stream',
        ...bomb.headers,
      },
      body: bomb.body,
    });
    const body = (await res.json()) as { error?: { code?: string } };
    return { status: res.status, code: body.error?.code ?? JSON.stringify(body), ms: performance.now() - started };
  };

  // The decode thread starts with the first upload (its own V8 isolate, once per process): warm it
  // up with one of each, then measure from there.
  for (const bomb of bombs) await send(bomb);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const baselineKb = await statusKb(pid, 'VmRSS');
  const resetPeak = await writeFile(`/proc/${pid}/clear_refs`, '5').then(
    () => true,
    () => false,
  );
  let sampledPeakKb = baselineKb;

  // /health/live every 100 ms meanwhile (and RSS sampled, for kernels without the peak reset).
  let polling = true;
  const health: { status: number; ms: number }[] = [];
  const poller = (async () => {
    while (polling) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/health/live`).catch(() => undefined);
      health.push({ status: res?.status ?? 0, ms: performance.now() - started });
      await res?.arrayBuffer();
      sampledPeakKb = Math.max(sampledPeakKb, await statusKb(pid, 'VmRSS'));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const rows: BombReport['rows'] = [];
  try {
    for (let i = 0; i < BOMBS; i += 1) {
      const bomb = bombs[i % bombs.length] as UploadBomb;
      const answer = await send(bomb);
      rows.push({ name: bomb.name, ...answer });
      assert.deepEqual([answer.status, answer.code], [bomb.status, bomb.code], bomb.name);
      assert.ok(answer.ms < REFUSE_WITHIN_MS, `${bomb.name}: refused after ${Math.round(answer.ms)} ms`);
    }
  } finally {
    polling = false;
    await poller;
  }
  const peakKb = resetPeak ? Math.max(await statusKb(pid, 'VmHWM'), sampledPeakKb) : sampledPeakKb;
  const report: BombReport = {
    rows,
    baselineMb: baselineKb / 1024,
    peakMb: peakKb / 1024,
    healthProbes: health.length,
    worstHealthMs: Math.max(...health.map((probe) => probe.ms)),
  };
  const growth = report.peakMb - report.baselineMb;
  console.log(
    `upload bombs: ${BOMBS} refused (slowest ${Math.round(Math.max(...rows.map((row) => row.ms)))} ms); oracle RSS ${Math.round(report.baselineMb)} MB before, peak ${Math.round(report.peakMb)} MB (+${growth.toFixed(1)} MB, bound ${PEAK_RSS_GROWTH_BOUND_MB}); /health/live ${health.length} answers, slowest ${Math.round(report.worstHealthMs)} ms`,
  );
  assert.ok(growth < PEAK_RSS_GROWTH_BOUND_MB, `the oracle's peak RSS grew by ${growth.toFixed(1)} MB`);
  assert.ok(
    health.length > 0 && health.every((probe) => probe.status === 200),
    `/health/live: ${JSON.stringify(health.filter((p) => p.status !== 200))}`,
  );
  return report;
}
