import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EncoderPool } from '../../inference/src/audio/encoder-pool.ts';
import {
  AI_COMMENT,
  C2PA_GEOB_MIME,
  GENERATION_ASSERTION_LABEL,
  GENERATOR,
  promptSha256,
  titleFromPrompt,
} from '../../inference/src/audio/content-credentials.ts';
import { measureMp3 } from '../../inference/src/audio/mp3-frames.ts';
import { fingerprintRecord } from '../../core/src/fingerprint/encoding.ts';
import { readSourceCredentials } from '../../inference/src/audio/source-credentials.ts';
import { loadSigningIdentity } from '../../inference/src/audio/signing-identity.ts';
import type { SigningIdentity } from '../../inference/src/audio/signing-identity.ts';
import type { LosslessFiles } from '../../inference/src/audio/lossless.ts';
import { fingerprintPcm } from '../../core/src/fingerprint/chromaprint.ts';
import { BUILTIN_MODEL_DIR, loadWorkerConfig } from '../../inference/src/config.ts';
import { builtinLyricsGenerator } from '../../inference/src/lyrics/builtin-lyrics.ts';
import { loadSongModel } from '../../inference/src/model/load-song-model.ts';
import type { SongModel } from '../../inference/src/model/song-model.ts';
import type { PipelineDeps, Song } from '../../inference/src/worker/pipeline.ts';
import { generateSong } from '../../inference/src/worker/pipeline.ts';
import { contentHash } from '../../core/src/content-hash.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';
import type { TempDir } from '../../core/src/testing/temp-dirs.ts';
import type { C2paReport } from '../support/c2pa.ts';
import { readC2pa, testSigningIdentity } from '../support/c2pa.ts';
import type { TestSigningIdentity } from '../support/c2pa.ts';
import { decodeMp3, ffmpegDecode } from './helpers/mp3-checks.ts';

const PROMPT = 'dreamy lo-fi piano with soft rain and a slow beat at night';
const JOB_ID = 'gen_7b0c1f7e-9d51-4a43-8d8e-1f2a3b4c5d6e';

interface Id3Frame {
  id: string;
  /** Offset of the frame body in the file. */
  start: number;
  body: Uint8Array;
}

/** An ID3v2.4 frame walk written for the test, independent of the writer's module. */
function readId3(bytes: Uint8Array): { tagEnd: number; frames: Id3Frame[] } {
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 3)), 'ID3');
  assert.equal(bytes[3], 4, 'ID3v2.4');
  const synchsafe = (at: number): number =>
    ((bytes[at] ?? 0) << 21) | ((bytes[at + 1] ?? 0) << 14) | ((bytes[at + 2] ?? 0) << 7) | (bytes[at + 3] ?? 0);
  const tagEnd = 10 + synchsafe(6);
  const frames: Id3Frame[] = [];
  for (let at = 10; at + 10 <= tagEnd && bytes[at] !== 0;) {
    const size = synchsafe(at + 4);
    frames.push({
      id: new TextDecoder().decode(bytes.subarray(at, at + 4)),
      start: at + 10,
      body: bytes.subarray(at + 10, at + 10 + size),
    });
    at += 10 + size;
  }
  return { tagEnd, frames };
}

function textOf(frame: Id3Frame | undefined): string {
  assert.ok(frame !== undefined);
  assert.equal(frame.body[0], 3, 'UTF-8');
  return new TextDecoder().decode(frame.body.subarray(1));
}

/** The GEOB frame's MIME type and where its object (the JUMBF manifest store) lies in the file. */
function geobObject(frame: Id3Frame): { mime: string; start: number; length: number } {
  const fields: string[] = [];
  let at = 1;
  for (let i = 0; i < 3; i++) {
    const end = frame.body.indexOf(0, at);
    fields.push(new TextDecoder().decode(frame.body.subarray(at, end)));
    at = end + 1;
  }
  return { mime: fields[0] ?? '', start: frame.start + at, length: frame.body.length - at };
}

function failures(report: C2paReport): string[] {
  return (report.validation_status ?? []).map((s) => s.code);
}

describe('content credentials: every published MP3 carries ID3 tags and a signed C2PA manifest', () => {
  let model: SongModel;
  let pool: EncoderPool;
  let test: TestSigningIdentity;
  let identity: SigningIdentity;
  let song: Song;
  let masters: LosslessFiles;
  let deps: PipelineDeps;

  before(async () => {
    const loaded = await loadSongModel({ modelDir: BUILTIN_MODEL_DIR, device: 'cpu' });
    if (!loaded.ok) throw new Error(loaded.error.message);
    model = loaded.value;
    pool = new EncoderPool(2);
    test = await testSigningIdentity();
    const signing = loadSigningIdentity({ certFile: test.env.C2PA_SIGN_CERT, keyFile: test.env.C2PA_PRIVATE_KEY });
    if (!signing.ok) throw new Error(signing.error.message);
    identity = signing.value;
    deps = {
      model,
      lyrics: builtinLyricsGenerator,
      encoder: { backend: 'wasm', pool, parallelism: 2 },
      signingIdentity: identity,
      slowModelMs: 0,
    };
    // The real pipeline: built-in ONNX model, LAME (wasm) in parallel chunks, then finishMp3.
    song = await generateSong(
      {
        prompt: PROMPT,
        durationSeconds: 4,
        seed: 18446744073709551557n,
        steps: 27,
        lyrics: null,
        withLyrics: false,
        jobId: JOB_ID,
        kind: 'song',
      },
      deps,
      new AbortController().signal,
      () => undefined,
    );
    // The masters are made after the song completed, from the same PCM.
    assert.ok(song.lossless !== null, 'a song has lossless masters');
    masters = await song.lossless.make(new AbortController().signal);
  });
  after(async () => {
    await pool.close();
    await model.release();
    await test.remove();
  });

  it('c2pa-rs (the reference reader) validates the signature and hard binding and reads every assertion', async () => {
    const report = await readC2pa(song.bytes, test.caPem);
    assert.deepEqual(failures(report), [], JSON.stringify(report.validation_status));
    assert.equal(report.validation_state, 'Trusted', 'signed by a certificate the development CA issued');
    const success = (report.validation_results?.activeManifest?.success ?? []).map((s) => s.code);
    for (const code of [
      'claimSignature.validated',
      'claimSignature.insideValidity',
      'assertion.dataHash.match',
      'signingCredential.trusted',
    ]) {
      assert.ok(success.includes(code), `${code} in ${success.join(', ')}`);
    }
    const manifest = report.manifests[report.active_manifest];
    assert.ok(manifest !== undefined);
    assert.equal(report.active_manifest, song.credentials.manifestLabel);
    assert.equal(manifest.claim_version, 2);
    assert.deepEqual(manifest.claim_generator_info?.[0], { name: 'Songmint', version: GENERATOR.version });
    assert.equal(manifest.title, undefined, "the claim has no title: it would carry the prompt's words");
    assert.equal(manifest.signature_info?.common_name, 'Songmint Development Signer');
    assert.equal(manifest.signature_info?.alg?.toLowerCase(), 'es256');

    const actions = manifest.assertions.find((a) => a.label === 'c2pa.actions.v2');
    assert.deepEqual(actions?.data, {
      actions: [
        {
          action: 'c2pa.created',
          digitalSourceType: 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia',
          softwareAgent: { name: model.name, version: model.version },
        },
      ],
    });
    const generation = manifest.assertions.find((a) => a.label === GENERATION_ASSERTION_LABEL);
    assert.deepEqual(generation?.data, {
      generator: { name: 'Songmint', version: GENERATOR.version },
      kind: 'song',
      jobId: JOB_ID,
      model: {
        name: model.name,
        version: model.version,
        licence: {
          spdx: model.licence.spdx,
          commercialUse: model.licence.commercial_use,
          ...(model.licence.url === undefined ? {} : { url: model.licence.url }),
        },
      },
      seed: '18446744073709551557',
      promptSha256: `0x${createHash('sha256').update(PROMPT).digest('hex')}`,
      // The sound's Chromaprint fingerprint, compact: the items the pipeline returned.
      fingerprint: fingerprintRecord(song.fingerprint),
      // A song from the prompt alone keeps no uploaded audio (docs/fingerprints.md "Outside audio").
      outsideAudio: { seconds: 0, spans: [] },
    });
    assert.ok(song.fingerprint.length > 10, `${song.fingerprint.length} items for 4 s`);
    assert.ok(!JSON.stringify(report).includes('lo-fi piano'), 'the prompt itself is not in the manifest');
  });

  it('ID3 tags a player shows, the manifest store in a GEOB frame whose bytes alone the hard binding excludes', async () => {
    const { tagEnd, frames } = readId3(song.bytes);
    assert.equal(textOf(frames.find((f) => f.id === 'TIT2')), 'Dreamy lo-fi piano with soft rain and a');
    assert.equal(textOf(frames.find((f) => f.id === 'TSSE')), `Songmint ${GENERATOR.version}`);
    const comment = frames.find((f) => f.id === 'COMM');
    assert.ok(comment !== undefined);
    assert.equal(new TextDecoder().decode(comment.body.subarray(1, 4)), 'eng');
    assert.equal(new TextDecoder().decode(comment.body.subarray(5)), AI_COMMENT);
    const geob = frames.filter((f) => f.id === 'GEOB');
    assert.equal(geob.length, 1);
    const object = geobObject(geob[0]!);
    assert.equal(object.mime, C2PA_GEOB_MIME);
    assert.equal(object.length, song.credentials.manifestBytes);
    assert.equal(tagEnd, song.credentials.tagBytes);

    // The JUMBF manifest store by hand (ISO 19566-5): a superbox 'jumb' whose description box
    // 'jumd' has the C2PA manifest store type and the label "c2pa".
    const jumbf = song.bytes.subarray(object.start, object.start + object.length);
    const view = new DataView(jumbf.buffer, jumbf.byteOffset, jumbf.byteLength);
    assert.equal(view.getUint32(0), jumbf.length, 'the superbox spans the GEOB object');
    assert.equal(new TextDecoder().decode(jumbf.subarray(4, 8)), 'jumb');
    assert.equal(new TextDecoder().decode(jumbf.subarray(12, 16)), 'jumd');
    assert.equal(Buffer.from(jumbf.subarray(16, 32)).toString('hex'), '6332706100110010800000aa00389b71', 'type c2pa');
    assert.equal(new TextDecoder().decode(jumbf.subarray(33, 37)), 'c2pa');

    // The hard binding by hand: SHA-256 of the whole file minus the manifest store's bytes is the
    // hash c2pa.hash.data carries (CBOR: "hash" then a 32-byte byte string).
    const expected = createHash('sha256')
      .update(song.bytes.subarray(0, object.start))
      .update(song.bytes.subarray(object.start + object.length))
      .digest();
    const hashKey = Buffer.from([0x64, ...Buffer.from('hash'), 0x58, 0x20]);
    const at = Buffer.from(jumbf).indexOf(hashKey);
    assert.ok(at > 0, 'c2pa.hash.data has a 32-byte hash');
    assert.deepEqual(Buffer.from(jumbf.subarray(at + hashKey.length, at + hashKey.length + 32)), expected);
    assert.ok(song.bytes.length - tagEnd > 0 && song.bytes[tagEnd] === 0xff, 'the MPEG frames follow the tag');
  });

  it('audio_hash is the SHA-256 of exactly the finished bytes, which still measure and decode', async () => {
    assert.equal(song.audioHash, contentHash(song.bytes));
    assert.equal(song.audioHash, `0x${createHash('sha256').update(song.bytes).digest('hex')}`);
    const measured = measureMp3(song.bytes);
    assert.ok(measured.ok);
    assert.equal(measured.value.samples, 4 * model.sampleRate);
    assert.equal(song.actualDuration, 4);
    const decoded = await decodeMp3(song.bytes);
    assert.equal(decoded.errors, 0);
    assert.ok(Math.abs(decoded.samples - 4 * model.sampleRate) <= 1152);
  });

  it('a changed audio byte, tag byte or manifest byte fails validation', async () => {
    const audioByte = song.bytes.slice();
    const i = song.credentials.tagBytes + Math.floor((audioByte.length - song.credentials.tagBytes) / 2);
    audioByte[i] = (audioByte[i] ?? 0) ^ 0x01;
    const audio = await readC2pa(audioByte, test.caPem);
    assert.equal(audio.validation_state, 'Invalid');
    assert.ok(failures(audio).includes('assertion.dataHash.mismatch'), failures(audio).join(', '));

    const title = song.bytes.slice();
    const t = Buffer.from(title).indexOf(Buffer.from('Dreamy'));
    title[t] = 'G'.charCodeAt(0);
    const retitled = await readC2pa(title, test.caPem);
    assert.equal(retitled.validation_state, 'Invalid');
    assert.ok(failures(retitled).includes('assertion.dataHash.mismatch'), failures(retitled).join(', '));

    const seed = song.bytes.slice();
    const s = Buffer.from(seed).indexOf(Buffer.from('18446744073709551557'));
    seed[s] = '2'.charCodeAt(0);
    const reseeded = await readC2pa(seed, test.caPem);
    assert.equal(reseeded.validation_state, 'Invalid');
    assert.ok(failures(reseeded).includes('assertion.hashedURI.mismatch'), failures(reseeded).join(', '));
  });

  it("an edit's source is read back and checked: its audio hash, its manifest's label, a manifest that validates", async () => {
    const expected = { audioHash: song.audioHash, manifestLabel: song.credentials.manifestLabel };
    const read = await readSourceCredentials(song.bytes, expected);
    assert.ok(read.ok, read.ok ? '' : read.error.message);
    assert.equal(read.value.manifestLabel, song.credentials.manifestLabel);
    assert.equal(read.value.title, titleFromPrompt(PROMPT));
    assert.deepEqual(read.value.validation.failure, []);
    assert.ok(read.value.validation.success.some((e) => e.code === 'claimSignature.validated'));
    assert.ok(read.value.validation.success.some((e) => e.code === 'assertion.dataHash.match'));

    const refused = async (bytes: Uint8Array, expect: typeof expected, message: RegExp) => {
      const r = await readSourceCredentials(bytes, expect);
      assert.equal(r.ok, false);
      if (!r.ok) {
        assert.equal(r.error.code, 'EDIT_SOURCE_INVALID');
        assert.match(r.error.message, message);
      }
    };
    await refused(song.bytes, { ...expected, audioHash: `0x${'00'.repeat(32)}` }, /hashes to/);
    await refused(song.bytes, { ...expected, manifestLabel: 'urn:c2pa:00000000-0000-4000-8000-000000000000' }, /its job recorded/);
    // A changed audio byte under a matching audio hash: the manifest's hard binding refuses it.
    const changed = song.bytes.slice();
    const i = song.credentials.tagBytes + Math.floor((changed.length - song.credentials.tagBytes) / 2);
    changed[i] = (changed[i] ?? 0) ^ 0x01;
    await refused(changed, { ...expected, audioHash: contentHash(changed) }, /does not validate: .*dataHash/);
    await refused(
      song.bytes.subarray(song.credentials.tagBytes),
      { ...expected, audioHash: contentHash(song.bytes.subarray(song.credentials.tagBytes)) },
      /no readable ID3/,
    );
  });

  it('a preview carries its own manifest naming it a preview', async () => {
    const preview = await generateSong(
      { prompt: PROMPT, durationSeconds: 2, seed: 7n, steps: 27, lyrics: null, withLyrics: false, jobId: JOB_ID, kind: 'preview' },
      deps,
      new AbortController().signal,
      () => undefined,
    );
    const report = await readC2pa(preview.bytes, test.caPem);
    assert.equal(report.validation_state, 'Trusted');
    const generation = report.manifests[report.active_manifest]?.assertions.find((a) => a.label === GENERATION_ASSERTION_LABEL)?.data as {
      kind: string;
      seed: string;
    };
    assert.equal(generation.kind, 'preview');
    assert.equal(generation.seed, '7');
    assert.equal(preview.audioHash, contentHash(preview.bytes));
  });

  it("a song's WAV and FLAC decode (ffmpeg) to identical 24-bit samples at the model's rate, matching the MP3 within its codec's tolerance", async () => {
    const lossless = masters;
    assert.deepEqual(lossless.pcm, { sampleRate: model.sampleRate, channels: 2, frames: 4 * model.sampleRate });
    assert.deepEqual(song.lossless?.pcm, lossless.pcm, 'the shape the completion records');
    const [wav, flac, mp3] = await Promise.all([
      ffmpegDecode(lossless.wav, 's32le'),
      ffmpegDecode(lossless.flac, 's32le'),
      ffmpegDecode(song.bytes, 'f32le'),
    ]);
    assert.equal(wav.length, 4 * model.sampleRate * 2 * 4, 'every sample, nothing more');
    assert.ok(wav.equals(flac), 'WAV and FLAC hold the same samples');
    // The PCM hash is the SHA-256 of those samples as 24-bit little-endian (what anyone can
    // recompute from the download): ffmpeg's s32le puts a 24-bit sample in the top three bytes.
    const s24 = Buffer.alloc((wav.length / 4) * 3);
    for (let i = 0; i < wav.length / 4; i++) wav.copy(s24, i * 3, i * 4 + 1, i * 4 + 4);
    assert.equal(lossless.pcmHash, `0x${createHash('sha256').update(s24).digest('hex')}`);
    assert.equal(song.pcmHash, lossless.pcmHash, "the hash the song completes with (read beside the MP3 encode) is the masters' ");
    // The fingerprint read beside the MP3 encode is the one of the masters' samples (decoded by ffmpeg).
    const floats = await ffmpegDecode(lossless.wav, 'f32le');
    const interleaved = new Float32Array(floats.buffer, floats.byteOffset, floats.length / 4);
    const channels = [0, 1].map((c) => Float32Array.from({ length: interleaved.length / 2 }, (_, i) => interleaved[i * 2 + c] ?? 0));
    assert.ok(song.fingerprint.length > 0);
    assert.deepEqual(song.fingerprint, fingerprintPcm(channels, model.sampleRate));

    // The MP3 (gapless through its Info tag) decodes to as many samples, aligned with the PCM.
    // Tolerance: 25 dB SNR over the song. A lossy codec shapes its noise to be inaudible, not
    // small, so samples never match exactly; LAME at 320 kbps gives about 32 dB on this music,
    // while the same comparison one sample off gives about 20 dB (and another song's PCM 0 dB
    // or less), so the bound tells the song's own aligned samples from anything else.
    assert.equal(mp3.length, wav.length, "the MP3 plays exactly the PCM's samples");
    const snr = (offset: number): number => {
      let signal = 0;
      let noise = 0;
      for (let i = 2 * offset; i < wav.length / 4; i++) {
        const reference = wav.readInt32LE(i * 4) / 2 ** 31;
        const decoded = mp3.readFloatLE((i - 2 * offset) * 4);
        signal += reference * reference;
        noise += (reference - decoded) ** 2;
      }
      return 10 * Math.log10(signal / noise);
    };
    const aligned = snr(0);
    assert.ok(aligned >= 25, `MP3 vs PCM SNR ${aligned.toFixed(1)} dB`);
    assert.ok(snr(1) < 25, 'one sample off fails the same tolerance');
  });

  it('c2pa-rs validates the WAV and FLAC manifests, each stating what the MP3 does', async () => {
    const lossless = masters;
    const mp3 = await readC2pa(song.bytes, test.caPem);
    const assertionsOf = (report: C2paReport) =>
      report.manifests[report.active_manifest]?.assertions.filter((a) => a.label !== 'c2pa.hash.data').map((a) => [a.label, a.data]);
    for (const [format, bytes] of [
      ['audio/wav', lossless.wav],
      ['audio/flac', lossless.flac],
    ] as const) {
      const report = await readC2pa(bytes, test.caPem, format);
      assert.deepEqual(failures(report), [], `${format}: ${JSON.stringify(report.validation_status)}`);
      assert.equal(report.validation_state, 'Trusted', format);
      const success = (report.validation_results?.activeManifest?.success ?? []).map((s) => s.code);
      assert.ok(success.includes('assertion.dataHash.match'), `${format}: ${success.join(', ')}`);
      assert.deepEqual(assertionsOf(report), assertionsOf(mp3), format);
      // Every sample is covered by the hard binding.
      const changed = bytes.slice();
      const at = Math.floor(changed.length / 3);
      changed[at] = (changed[at] ?? 0) ^ 0x01;
      const tampered = await readC2pa(changed, test.caPem, format);
      assert.equal(tampered.validation_state, 'Invalid', `${format} with a changed byte`);
    }
  });

  it('without the development CA as a trust anchor the signature is valid but not trusted', async () => {
    const report = await readC2pa(song.bytes);
    assert.equal(report.validation_state, 'Valid');
    assert.deepEqual(failures(report), ['signingCredential.untrusted']);
  });

  it('the prompt hash and the title follow the prompt', () => {
    assert.equal(promptSha256('abc'), '0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(titleFromPrompt('  upbeat   synth pop  '), 'Upbeat synth pop');
    assert.equal(titleFromPrompt(''), 'Untitled');
    assert.ok(titleFromPrompt('x'.repeat(200)).length <= 60);
  });
});

describe('C2PA signing identity: checked once at start, each problem named', () => {
  let dir: TempDir;
  let test: TestSigningIdentity;
  before(async () => {
    dir = await makeTempDir('c2pa-bad-identity');
    test = await testSigningIdentity();
  });
  after(async () => {
    await dir.remove();
    await test.remove();
  });

  it('the worker configuration requires both variables', () => {
    const base = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'b' };
    const missing = loadWorkerConfig(base);
    assert.ok(!missing.ok);
    assert.ok(
      missing.error.problems.some((p) => p.startsWith('C2PA_SIGN_CERT: required')),
      missing.error.problems.join('; '),
    );
    assert.ok(
      missing.error.problems.some((p) => p.startsWith('C2PA_PRIVATE_KEY: required')),
      missing.error.problems.join('; '),
    );
  });

  it('names an unreadable file, a file that is not PEM, a key of another certificate, and a CA used as signer', async () => {
    const good = { certFile: test.env.C2PA_SIGN_CERT, keyFile: test.env.C2PA_PRIVATE_KEY };
    assert.ok(loadSigningIdentity(good).ok);

    const absent = loadSigningIdentity({ ...good, certFile: join(dir.path, 'nope.pem') });
    assert.ok(!absent.ok);
    assert.match(absent.error.message, /^C2PA_SIGN_CERT: cannot read .*nope\.pem \(ENOENT\)/);

    const garbage = join(dir.path, 'garbage.pem');
    await writeFile(garbage, 'not a key');
    const notKey = loadSigningIdentity({ ...good, keyFile: garbage });
    assert.ok(!notKey.ok);
    assert.match(notKey.error.message, /^C2PA_PRIVATE_KEY: .*garbage\.pem is not a PEM private key/);

    const other = await testSigningIdentity();
    try {
      const mismatch = loadSigningIdentity({ ...good, keyFile: other.env.C2PA_PRIVATE_KEY });
      assert.ok(!mismatch.ok);
      assert.match(mismatch.error.message, /^C2PA_PRIVATE_KEY: .* is not the key of the signer certificate/);
    } finally {
      await other.remove();
    }

    const caFile = join(dir.path, 'ca.pem');
    await writeFile(caFile, test.caPem);
    const caAsSigner = loadSigningIdentity({ ...good, certFile: caFile });
    assert.ok(!caAsSigner.ok);
    // The CA's key is not the signer's, so the key check names it first; a CA with its own key
    // is refused by the profile check.
    assert.match(caAsSigner.error.message, /^C2PA_PRIVATE_KEY: .* is not the key of the signer certificate/);

    const chainOutOfOrder = join(dir.path, 'chain.pem');
    await writeFile(chainOutOfOrder, `${await readFile(good.certFile, 'utf8')}${await readFile(good.certFile, 'utf8')}`);
    const badChain = loadSigningIdentity({ ...good, certFile: chainOutOfOrder });
    assert.ok(!badChain.ok);
    assert.match(badChain.error.message, /^C2PA_SIGN_CERT: certificate 2 of the chain did not issue certificate 1/);

    const expired = loadSigningIdentity(good, new Date(Date.now() + 400 * 86_400_000));
    assert.ok(!expired.ok);
    assert.match(expired.error.message, /^C2PA_SIGN_CERT: the signer certificate expired on /);
  });
});
