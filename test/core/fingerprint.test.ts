/**
 * The fingerprint (core/src/fingerprint/, docs/fingerprints.md) against Debian's fpcalc
 * (Chromaprint 1.5 in C, libchromaprint-tools) on files ffmpeg made from built-in model songs, and
 * the match rule on copies ffmpeg made; both fingerprints from one pass
 * (core/src/fingerprint/sound-fingerprints.ts) against each computed alone.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decodeUploadedAudio } from '../../core/src/audio/uploaded-audio.ts';
import { createFingerprinter, fingerprintPcm, ITEM_SECONDS } from '../../core/src/fingerprint/chromaprint.ts';
import { decodeFingerprint, encodeFingerprint, fingerprintFromBytes, fingerprintToBytes } from '../../core/src/fingerprint/encoding.ts';
import { landmarkPeaks } from '../../core/src/fingerprint/landmarks.ts';
import { findContainment, MATCH_RULE, popcount32 } from '../../core/src/fingerprint/match.ts';
import { createSoundFingerprinter } from '../../core/src/fingerprint/sound-fingerprints.ts';
import { makeCopy, wav16 } from '../support/audio-copies.ts';
import { runReference } from '../support/reference-tools.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import { BUILTIN_MODEL_DIR } from '../../inference/src/config.ts';
import { loadSongModel } from '../../inference/src/model/load-song-model.ts';
import type { SongModel } from '../../inference/src/model/song-model.ts';

const run = promisify(execFile);
const FPCALC = spawnSync('fpcalc', ['-version']).status === 0;
const SKIP_FPCALC = FPCALC ? false : 'fpcalc (Debian libchromaprint-tools) is not installed: no independent Chromaprint to compare with';

/** fpcalc's output for `path` (the whole file): raw items, or the compressed form. fpcalc 1.5 exits 3 at a WAV's end after printing. */
async function fpcalc(path: string, raw: boolean): Promise<string> {
  const args = [...(raw ? ['-raw'] : []), '-plain', '-length', '0', path];
  const out = await run('fpcalc', args).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const text = String(out.stdout).trim();
  assert.ok(text.length > 0, `fpcalc printed nothing for ${path}`);
  return text;
}

async function fingerprintFile(path: string): Promise<Uint32Array> {
  const decoded = await decodeUploadedAudio(new Uint8Array(await readFile(path)), { maxSeconds: 3600 });
  if (!decoded.ok) throw new Error(decoded.error.message);
  return fingerprintPcm(decoded.value.channels, decoded.value.sampleRate);
}

function bitErrors(a: Uint32Array, b: Uint32Array): { items: number; bits: number } {
  const items = Math.min(a.length, b.length);
  let bits = 0;
  for (let i = 0; i < items; i += 1) bits += popcount32(((a[i] as number) ^ (b[i] as number)) >>> 0);
  return { items, bits };
}

describe('fingerprints: Chromaprint (algorithm 2) in TypeScript, checked against fpcalc', () => {
  let dir: TempDir;
  let model: SongModel;
  /** 44.1 kHz stereo 16-bit WAVs of two built-in songs, and unrelated audio. */
  let song: string;
  let other: string;
  let songPcm: Float32Array[];

  before(async () => {
    dir = await makeTempDir('fingerprint');
    const loaded = await loadSongModel({ modelDir: BUILTIN_MODEL_DIR, device: 'cpu' });
    if (!loaded.ok) throw new Error(loaded.error.message);
    model = loaded.value;
    const signal = new AbortController().signal;
    const render = async (prompt: string, seed: bigint, seconds: number) =>
      (await model.render({ prompt, lyrics: null, seed, durationSeconds: seconds, steps: 27 }, signal)).pcm;
    const a = await render('dreamy synth pop in A', 11n, 24);
    songPcm = a.channels;
    const b = await render('dark techno in D minor 128 bpm', 12n, 24);
    song = join(dir.path, 'song.wav');
    other = join(dir.path, 'other.wav');
    await writeFile(song, wav16(a.channels, a.sampleRate));
    await writeFile(other, wav16(b.channels, b.sampleRate));
  });
  after(async () => {
    await model.release();
    await dir.remove();
  });

  it('equals fpcalc -raw item for item on 16-bit mono 11,025 Hz audio made by ffmpeg', { skip: SKIP_FPCALC }, async () => {
    for (const source of [song, other]) {
      const path = `${source}.11025.wav`;
      await makeCopy(source, path, ['-ac', '1', '-ar', '11025', '-c:a', 'pcm_s16le']);
      const reference = Uint32Array.from((await fpcalc(path, true)).split(',').map(Number));
      const ours = await fingerprintFile(path);
      assert.ok(reference.length > 150, `fpcalc gave ${reference.length} items`);
      assert.deepEqual(ours, reference);
    }
  });

  it(
    'matches fpcalc within a bit error of 1e-3 at 44.1 and 48 kHz stereo (measured: 0 to 3e-5; the resamplers differ)',
    {
      skip: SKIP_FPCALC,
    },
    async () => {
      const at48 = join(dir.path, 'song.48k.wav');
      await makeCopy(song, at48, ['-ar', '48000', '-c:a', 'pcm_s16le']);
      for (const path of [song, at48]) {
        const reference = Uint32Array.from((await fpcalc(path, true)).split(',').map(Number));
        const ours = await fingerprintFile(path);
        assert.ok(Math.abs(ours.length - reference.length) <= 1, `${ours.length} items against fpcalc's ${reference.length}`);
        const { items, bits } = bitErrors(ours, reference);
        assert.ok(bits / (32 * items) <= 1e-3, `${path}: ${bits} bit errors in ${items} items`);
      }
    },
  );

  it("writes AcoustID's compressed form exactly as fpcalc prints it, and reads it back", { skip: SKIP_FPCALC }, async () => {
    const path = `${song}.11025.wav`;
    const compressed = await fpcalc(path, false);
    const raw = Uint32Array.from((await fpcalc(path, true)).split(',').map(Number));
    assert.equal(encodeFingerprint(raw), compressed);
    const back = decodeFingerprint(compressed);
    assert.ok(back.ok);
    assert.equal(back.value.algorithmId, 1);
    assert.deepEqual(back.value.items, raw);
    assert.deepEqual(fingerprintFromBytes(fingerprintToBytes(raw)), raw);
  });

  it('refuses a malformed or oversized compressed fingerprint instead of reading past it', () => {
    const good = encodeFingerprint(Uint32Array.from([1, 0x80000001, 0xffffffff, 0]));
    assert.ok(decodeFingerprint(good).ok);
    for (const bad of ['', 'AQ', 'not base64!', good.slice(0, 6), `${good.slice(0, 1)}B${good.slice(2)}`]) {
      const decoded = decodeFingerprint(bad);
      assert.equal(decoded.ok, false, `took ${JSON.stringify(bad)}`);
    }
    const tooLong = decodeFingerprint(good, 3);
    assert.equal(tooLong.ok, false);
  });

  it('gives the same items fed in blocks of any size as fed whole', () => {
    const whole = fingerprintPcm(songPcm, 44100, songPcm[0]?.length ?? 0);
    const fingerprinter = createFingerprinter(44100, 2);
    const length = songPcm[0]?.length ?? 0;
    let at = 0;
    for (let step = 1; at < length; step = (step * 7 + 3) % 5000) {
      const end = Math.min(length, at + step);
      fingerprinter.feed(songPcm.map((channel) => channel.subarray(at, end)));
      at = end;
    }
    assert.deepEqual(fingerprinter.finish(), whole);
    assert.ok(Math.abs(whole.length * ITEM_SECONDS - 24 + 2.6) < 0.3, `${whole.length} items for 24 s`);
  });

  it('computes Chromaprint and the landmark peaks in one pass exactly as each alone, in blocks of any size', () => {
    const left = songPcm[0] as Float32Array;
    const right = songPcm[1] as Float32Array;
    const layouts = [songPcm, [left], [left, right, left]];
    for (const channels of layouts) {
      const length = left.length;
      const fingerprinter = createSoundFingerprinter(44100, channels.length);
      let at = 0;
      for (let step = 1; at < length; step = (step * 7 + 3) % 5000) {
        const end = Math.min(length, at + step);
        fingerprinter.feed(channels.map((channel) => channel.subarray(at, end)));
        at = end;
      }
      const both = fingerprinter.finish();
      assert.deepEqual(both.chromaprint, fingerprintPcm(channels, 44100), `${channels.length} channels: Chromaprint`);
      const peaks = landmarkPeaks(channels, 44100);
      assert.ok(peaks.length > 100, `${peaks.length} peaks`);
      assert.deepEqual(both.landmarks, peaks, `${channels.length} channels: landmark peaks`);
    }
    assert.throws(() => createSoundFingerprinter(44100, 2).feed([left]), RangeError);
  });

  it('finds a trimmed, quieter 192 kbps copy and a 10 s excerpt set in other audio; not another song, a 6 s excerpt or silence', async () => {
    const original = fingerprintPcm(songPcm, 44100);
    const copyPath = join(dir.path, 'copy.mp3');
    await makeCopy(song, copyPath, ['-af', 'atrim=start=0.3,asetpts=PTS-STARTPTS,volume=-6dB', '-c:a', 'libmp3lame', '-b:a', '192k']);
    const copy = await fingerprintFile(copyPath);
    const found = findContainment(copy, original);
    assert.ok(found !== null, 'the copy is not found');
    assert.ok(found.bitError < MATCH_RULE.maxBitError / 2, `bit error ${found.bitError}`);
    // 0.3 s is 2.4 items: the copy's item j lines up with the original's item j + 2.
    assert.equal(found.referenceItem - found.queryItem, 2);

    const excerpt = async (name: string, start: number, seconds: number): Promise<Uint32Array> => {
      const path = join(dir.path, name);
      await runReference('ffmpeg', [
        ...['-v', 'error', '-y', '-i', other, '-i', song, '-filter_complex'],
        `[1:a]atrim=${start}:${start + seconds},asetpts=PTS-STARTPTS[cut];[0:a]atrim=0:7,asetpts=PTS-STARTPTS[a];[0:a]atrim=7:14,asetpts=PTS-STARTPTS[b];[a][cut][b]concat=n=3:v=0:a=1`,
        ...['-c:a', 'pcm_s16le', path],
      ]);
      return fingerprintFile(path);
    };
    assert.ok(findContainment(await excerpt('ten.wav', 6.37, 10), original) !== null, 'a 10 s excerpt is not found');
    assert.equal(findContainment(await excerpt('six.wav', 6.37, 6), original), null, 'a 6 s excerpt counts');

    const otherSong = await fingerprintFile(other);
    assert.equal(findContainment(otherSong, original), null);
    assert.equal(findContainment(original, otherSong), null);
    const silence = fingerprintPcm([new Float32Array(44100 * 20)], 44100);
    assert.ok(silence.length > 100);
    assert.equal(findContainment(silence, silence), null, 'silence matches silence');
  });
});
