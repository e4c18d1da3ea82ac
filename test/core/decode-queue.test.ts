/**
 * The decode threads' queue and budgets (core/src/audio/audio-prober.ts, issue 49), on the real
 * decoders and threads: one account's many decodes do not delay another's behind all of them, the
 * queue refuses what it cannot hold (`busy`), a caller that leaves cancels its decode (queued or
 * running: the thread is told, or ended and replaced), and a decode past its wall-clock budget
 * stops. Orders and codes are asserted, never durations.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createAudioProber } from '../../core/src/audio/audio-prober.ts';
import type { AudioProber, Probed } from '../../core/src/audio/audio-prober.ts';
import { oneSampleFlac, wavHeader } from '../support/upload-bombs.ts';

/** 200,000 one-sample frames (3 MB, 4.5 s of audio): the slowest FLAC per byte, about 0.4 s to decode here. */
const slow = oneSampleFlac(200_000);
/**
 * 1,000,000 of them at 192 kHz (16 MB, 5.2 s of audio): about 1.8 s to decode on a quiet core
 * (2026-11-30), past the timed prober's 0.5 s whatever the machine (`slow` now fits in it).
 */
const slower = oneSampleFlac(1_000_000, 192_000);
/** A 1 s WAV: decoded in milliseconds. */
const quick = (() => {
  const data = 8000 * 2;
  const wav = new Uint8Array(44 + data);
  wav.set(wavHeader(data, 8000, 1));
  return wav;
})();
const BUDGET = { maxSeconds: 30 };
const codeOf = (probed: Probed) => (probed.result.ok ? 'ok' : probed.result.error.code);

/** Starts `prober`'s threads (a thread takes requests once it has loaded: a second or more here). */
async function warm(prober: AudioProber, threads = 1): Promise<void> {
  const warming = Array.from({ length: threads }, (_, n) => prober.probe(quick.slice(), BUDGET, { account: `warm${n}` }));
  assert.deepEqual((await Promise.all(warming)).map(codeOf), Array<string>(threads).fill('ok'));
}

describe('decode threads: fair, bounded, cancellable, timed', () => {
  it("serves accounts in turn: B's one decode runs before A's queued ones, and the queue refuses beyond its caps", async () => {
    const prober = createAudioProber({ threads: 1, perAccount: 3, maxWaiting: 4 });
    try {
      await warm(prober);
      const done: string[] = [];
      const track = (name: string, probing: Promise<Probed>) =>
        probing.then((probed) => {
          done.push(name);
          return probed;
        });
      const a = [1, 2, 3].map((n) => track(`A${n}`, prober.probe(slow.slice(), BUDGET, { account: 'A' })));
      assert.deepEqual(prober.load('A'), { waiting: 2, running: 1 });
      // A's fourth: A holds its 3 already; refused at once, nothing decoded.
      const refused = await prober.probe(quick.slice(), BUDGET, { account: 'A' });
      assert.equal(codeOf(refused), 'busy');
      assert.match(refused.result.ok ? '' : refused.result.error.message, /at most 3/);
      const b = track('B1', prober.probe(quick.slice(), BUDGET, { account: 'B' }));
      const c = track('C1', prober.probe(quick.slice(), BUDGET, { account: 'C' }));
      // Waiting: A2, A3, B1, C1 (the queue's 4): D's is refused.
      assert.equal(codeOf(await prober.probe(quick.slice(), BUDGET, { account: 'D' })), 'busy');
      const results = await Promise.all([...a, b, c]);
      assert.deepEqual(results.map(codeOf), ['ok', 'ok', 'ok', 'ok', 'ok']);
      assert.deepEqual(done, ['A1', 'B1', 'C1', 'A2', 'A3'], 'B and C are served before A is served again');
      assert.deepEqual(prober.load(), { waiting: 0, running: 0 });
    } finally {
      await prober.close();
    }
  });

  it('one account runs on at most all threads but one', async () => {
    const prober = createAudioProber({ threads: 2, perAccount: 4 });
    try {
      await warm(prober, 2);
      const a = [1, 2, 3].map(() => prober.probe(slow.slice(), BUDGET, { account: 'A' }));
      assert.deepEqual(prober.load('A'), { waiting: 2, running: 1 }, 'the second thread is left to others');
      const b = await prober.probe(quick.slice(), BUDGET, { account: 'B' });
      assert.equal(codeOf(b), 'ok');
      assert.equal(prober.load('A').running, 1, "B was served while A's first decode still ran");
      assert.deepEqual((await Promise.all(a)).map(codeOf), ['ok', 'ok', 'ok']);
    } finally {
      await prober.close();
    }
  });

  it('a caller that leaves cancels its decode: unqueued while it waits, stopped while it runs, and the thread serves the next', async () => {
    const prober = createAudioProber({ threads: 1 });
    try {
      await warm(prober);
      const running = new AbortController();
      const queued = new AbortController();
      const first = prober.probe(slow.slice(), BUDGET, { account: 'A', signal: running.signal });
      const second = prober.probe(slow.slice(), BUDGET, { account: 'A', signal: queued.signal });
      const other = prober.probe(quick.slice(), BUDGET, { account: 'B' });
      queued.abort();
      const unqueued = await second;
      assert.equal(codeOf(unqueued), 'cancelled');
      assert.match(unqueued.result.ok ? '' : unqueued.result.error.message, /before it started/);
      assert.deepEqual(prober.load('A'), { waiting: 0, running: 1 });
      running.abort();
      const stopped = await first;
      assert.equal(codeOf(stopped), 'cancelled');
      // Told through the shared flag, the decoder stopped between frames (no thread had to be ended).
      assert.match(stopped.result.ok ? '' : stopped.result.error.message, /^FLAC: the decode was cancelled/);
      assert.equal(codeOf(await other), 'ok', "B's upload is served by the freed thread");
      // Already aborted: never queued.
      assert.equal(codeOf(await prober.probe(quick.slice(), BUDGET, { signal: AbortSignal.abort() })), 'cancelled');
    } finally {
      await prober.close();
    }
  });

  it('a thread that does not stop within the grace is ended and replaced; a decode past its deadline stops', async () => {
    // No grace: the cancel ends the thread before the decoder can answer.
    const impatient = createAudioProber({ threads: 1, graceMs: 0 });
    const timed = createAudioProber({ threads: 1, decodeSeconds: 0.5 });
    try {
      await Promise.all([warm(impatient), warm(timed)]);
      const leaving = new AbortController();
      const first = impatient.probe(slow.slice(), BUDGET, { account: 'A', signal: leaving.signal });
      const next = impatient.probe(quick.slice(), BUDGET, { account: 'B' });
      leaving.abort();
      const ended = await first;
      assert.equal(codeOf(ended), 'cancelled');
      assert.equal(codeOf(await next), 'ok', 'a fresh thread serves the next request');
      const late = await timed.probe(slower.slice(), BUDGET, { account: 'A' });
      assert.equal(codeOf(late), 'timed_out', late.result.ok ? '' : late.result.error.message);
      assert.equal(codeOf(await timed.probe(quick.slice(), BUDGET, { account: 'A' })), 'ok');
    } finally {
      await impatient.close();
      await timed.close();
    }
  });
});
