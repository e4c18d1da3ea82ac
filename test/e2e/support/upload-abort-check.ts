/**
 * Issue 49's disconnect attack replayed against a running oracle: one free account sends a 69 MB
 * FLAC of one-sample frames (the slowest stream to decode per byte) and closes the connection as
 * soon as the body is out, `ABORTS` times, two at a time (its in-flight limit), while a second
 * account uploads a small WAV again and again. Before issue 49 the aborted decodes stayed queued
 * with their bodies (24 took an oracle from 680 to 2,269 MB and held the other account's upload
 * 204 s). The oracle's resident memory is read from /proc/<pid>/status: its growth over the
 * attack must stay under `RSS_GROWTH_BOUND_MB`; the other account's latencies are reported (a
 * figure, not an assertion: the machine is shared), and every one of its uploads must be taken.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { oneSampleFlac, wavHeader } from '../../support/upload-bombs.ts';

export const ABORTS = 16;
/** The bound on the oracle's RSS growth over `ABORTS` aborted 69 MB uploads (the issue's: 500 MB). */
export const RSS_GROWTH_BOUND_MB = 500;
/** One-sample frames in the attacker's FLAC: about 69 MB (4.2 million frames of 15 to 17 bytes). */
const ATTACK_FRAMES = 4_200_000;

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (match === null) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]);
}

export interface AbortReport {
  aborts: number;
  attackBytes: number;
  /** Aborted uploads the oracle refused before their body (429 UPLOAD_006: the attacker's in-flight limit). */
  refusedBeforeBody: number;
  baselineMb: number;
  peakMb: number;
  /** The other account's uploads during the attack: how many, and their latencies in ms. */
  victimUploads: number;
  victimMedianMs: number;
  victimWorstMs: number;
  /** The same account's upload latency with no attack, measured first (the median of three). */
  quietMs: number;
}

/** Sends `body` as an upload of `token`'s and closes the connection once the body is out (or its answer comes first). */
function sendAndLeave(baseUrl: string, token: string, body: Uint8Array): Promise<number | null> {
  return new Promise((resolve) => {
    const request = httpRequest(`${baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'Songmint-Rights-Confirmed': 'true', 'content-length': String(body.length) },
    });
    request.on('error', () => resolve(null));
    request.on('response', (res) => {
      res.resume();
      request.destroy();
      resolve(res.statusCode ?? null);
    });
    request.end(body, () => {
      request.destroy();
      resolve(null);
    });
  });
}

/** Replays the attack against `baseUrl` (served by process `pid`) with two signed-in accounts' tokens. */
export async function checkAbortedUploads(
  baseUrl: string,
  pid: number,
  tokens: { attacker: string; victim: string },
): Promise<AbortReport> {
  const attack = oneSampleFlac(ATTACK_FRAMES);
  const small = (() => {
    const data = 8000 * 2;
    const wav = new Uint8Array(44 + data);
    wav.set(wavHeader(data, 8000, 1));
    for (let i = 44; i < wav.length; i += 2) wav[i + 1] = (i * 7) & 0x3f;
    return wav;
  })();
  const victimUpload = async (): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.victim}`, 'Songmint-Rights-Confirmed': 'true' },
      body: small,
    });
    const body = await res.text();
    assert.equal(res.status, 201, body);
    return performance.now() - started;
  };
  // With no attack: the first upload starts the decode threads; the median of the next three.
  await victimUpload();
  const quiet = [await victimUpload(), await victimUpload(), await victimUpload()].sort((a, b) => a - b);
  const quietMs = quiet[1] ?? Number.NaN;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const baselineKb = await rssKb(pid);
  let peakKb = baselineKb;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peakKb = Math.max(peakKb, await rssKb(pid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  let attacking = true;
  const latencies: number[] = [];
  const victim = (async () => {
    while (attacking) latencies.push(await victimUpload());
  })();
  let refusedBeforeBody = 0;
  try {
    // Two at a time: the attacker's in-flight limit.
    for (let sent = 0; sent < ABORTS; sent += 2) {
      const statuses = await Promise.all([sendAndLeave(baseUrl, tokens.attacker, attack), sendAndLeave(baseUrl, tokens.attacker, attack)]);
      refusedBeforeBody += statuses.filter((status) => status === 429).length;
    }
    // The victim's uploads once more after the last abort: nothing the attacker left holds them up.
    latencies.push(await victimUpload());
  } finally {
    attacking = false;
    await victim;
    sampling = false;
    await sampler;
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const report: AbortReport = {
    aborts: ABORTS,
    attackBytes: attack.length,
    refusedBeforeBody,
    baselineMb: baselineKb / 1024,
    peakMb: peakKb / 1024,
    victimUploads: latencies.length,
    victimMedianMs: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
    victimWorstMs: sorted.at(-1) ?? Number.NaN,
    quietMs,
  };
  const growth = report.peakMb - report.baselineMb;
  console.log(
    `aborted uploads: ${ABORTS} of ${(attack.length / 1e6).toFixed(1)} MB (${refusedBeforeBody} refused before their body); oracle RSS ${Math.round(report.baselineMb)} MB before, peak ${Math.round(report.peakMb)} MB (+${growth.toFixed(0)} MB, bound ${RSS_GROWTH_BOUND_MB}); the other account's ${latencies.length} uploads: median ${Math.round(report.victimMedianMs)} ms, worst ${Math.round(report.victimWorstMs)} ms (${Math.round(quietMs)} ms with no attack)`,
  );
  assert.ok(growth < RSS_GROWTH_BOUND_MB, `the oracle's RSS grew by ${growth.toFixed(0)} MB`);
  return report;
}
