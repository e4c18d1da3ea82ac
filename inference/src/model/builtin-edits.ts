/**
 * Edits on the built-in model, in its own terms. Its final state is its PCM (it has no latent
 * space), kept as 16-bit stereo with the conditioning and seed that made it (./kept-latents.ts).
 *
 * - repaint and extend: the kept samples are the source's, unchanged; the edited range comes from
 *   a new render with the edit job's seed and prompt, on the source's tempo, key and mode (so the
 *   bar grid lines up), faded in and out over `FADE_SECONDS` inside the range;
 * - remix: the whole song rendered again with the source's seed (its chord progression and
 *   melody latent), tempo, key and mode, and the style fields (groove, density, levels,
 *   brightness, width, legato) moved toward the prompt's and a draw from the edit's seed;
 *   `strength` 1 keeps the source's style but its groove, 0 takes the draw's.
 *
 * Uploaded audio (`importAudio`) becomes the same kept state: down-mixed (or spread) to the
 * model's channels, resampled to its rate and rounded to 16 bits, so an extend or repaint keeps
 * the uploaded samples outside the range. Its tempo, key and mode are estimated from the audio
 * (./audio-analysis.ts) and kept as its conditioning (`imported` in the header), so new material
 * lines up with it; a prompt that names them ("92 bpm, in A minor") overrides the estimate. Its
 * style fields are the prompt's, and a remix renders the model's own song on the upload's tempo
 * and key from a seed drawn from the upload's samples.
 */
import type { EditParameters, EditSupport } from '../../../core/src/song-edits.ts';
import { lyricsRhythm } from '../lyrics/lyrics-rhythm.ts';
import { decodeKeptLatents, encodeKeptLatents } from './kept-latents.ts';
import type { ModelManifest } from './manifest.ts';
import type { MusicModel, PcmAudio } from './runtime.ts';
import { resample } from '../audio/resample.ts';
import { createHash } from 'node:crypto';
import { seedToModelInput, seededRandom } from './seed.ts';
import { EditUnsupportedError } from './song-model.ts';
import type { RenderedSong, SongEditRequest, SongModelRequest } from './song-model.ts';
import { encodePrompt, explicitTempoAndKey } from './text-encoder.ts';
import { estimateTempoAndKey } from './audio-analysis.ts';
import { roundClipped } from '../../../core/src/audio/round-sample.ts';

/** The built-in model can run every edit. */
export const BUILTIN_EDIT_SUPPORT: EditSupport = { extend: null, repaint: null, remix: null };

/** Fade into and out of new material inside an edited range (10 ms). */
export const FADE_SECONDS = 0.01;

/** Fields an edit keeps from its source: the tempo and the key. */
const KEPT_FIELDS = ['bpm', 'key', 'minor'] as const;
/** Fields a remix moves: everything of style. */
const STYLE_FIELDS = ['brightness', 'density', 'drums', 'bass', 'pad', 'lead', 'width', 'legato'] as const;

interface RenderInputs {
  conditioning: Float32Array;
  rhythm: Float32Array;
  seed: bigint;
  steps: number;
}

const INT16_SCALE = 32767;

/**
 * `channels` at 16 bits (the samples kept, planar), and rounded to them in place (`v / 32767`, as
 * `toPcm` makes them): what is kept is exactly what is encoded, without a second float copy of
 * the song.
 */
function quantize(channels: readonly Float32Array[], inPlace: boolean): Int16Array {
  const length = channels[0]?.length ?? 0;
  const out = new Int16Array(channels.length * length);
  // A plain loop per plane, the read-back in a pass of its own: a 240 s song quantizes in about
  // 110 ms against 160 ms for a closure per channel that read back as it went.
  for (let c = 0; c < channels.length; c += 1) {
    const channel = channels[c] as Float32Array;
    const plane = out.subarray(c * length, (c + 1) * length);
    for (let i = 0; i < length; i += 1) plane[i] = roundClipped((channel[i] as number) * INT16_SCALE, -INT16_SCALE, INT16_SCALE);
    // Read back from the integers: a NaN the graph put out is kept as 0, as it always was.
    if (inPlace) for (let i = 0; i < length; i += 1) channel[i] = (plane[i] as number) / INT16_SCALE;
  }
  return out;
}

function toPcm(data: Int16Array, channels: number, sampleRate: number): PcmAudio {
  const length = data.length / channels;
  const out = Array.from({ length: channels }, () => new Float32Array(length));
  out.forEach((channel, c) => {
    for (let i = 0; i < length; i += 1) channel[i] = (data[c * length + i] ?? 0) / INT16_SCALE;
  });
  return { sampleRate, channels: out };
}

function fieldIndex(manifest: ModelManifest, name: string): number {
  const index = manifest.conditioning.fields.findIndex((field) => field.name === name);
  if (index < 0) throw new Error(`the built-in manifest has no conditioning field ${name}`);
  return index;
}

/** The built-in song model's render and edit over one ONNX session. */
export function builtinRenderer(model: MusicModel) {
  const manifest = model.manifest;
  const rate = manifest.sample_rate;

  function keep(pcm: Int16Array, channels: number, inputs: RenderInputs, imported = false): Uint8Array {
    return encodeKeptLatents(
      {
        model: { name: manifest.name, version: manifest.version },
        dtype: 'int16',
        shape: [channels, pcm.length / channels],
        extra: {
          sampleRate: rate,
          conditioning: Array.from(inputs.conditioning),
          rhythm: Array.from(inputs.rhythm),
          seed: inputs.seed.toString(),
          steps: inputs.steps,
          ...(imported ? { imported: true } : {}),
        },
      },
      pcm,
    );
  }

  /** A render's 16-bit samples, and its PCM rounded to them. */
  async function run(inputs: RenderInputs, numSamples: number, signal: AbortSignal): Promise<{ data: Int16Array; pcm: PcmAudio }> {
    const pcm = await model.generate(
      { conditioning: inputs.conditioning, seed: seedToModelInput(inputs.seed), rhythm: inputs.rhythm, numSamples, steps: inputs.steps },
      signal,
    );
    return { data: quantize(pcm.channels, true), pcm };
  }

  function rhythmOf(lyrics: string | null): Float32Array {
    return lyrics === null
      ? Float32Array.from(manifest.conditioning.default_rhythm)
      : lyricsRhythm(lyrics, manifest.conditioning.default_rhythm);
  }

  async function render(request: SongModelRequest, signal: AbortSignal): Promise<RenderedSong> {
    const encoded = encodePrompt(request.prompt, manifest.conditioning);
    const inputs: RenderInputs = {
      conditioning: encoded.conditioning,
      rhythm: rhythmOf(request.lyrics),
      seed: request.seed,
      steps: request.steps,
    };
    const { data, pcm } = await run(inputs, request.durationSeconds * rate, signal);
    return {
      pcm,
      conditioning: encoded.values,
      matchedWords: encoded.matched,
      tokens: 0,
      kept: keep(data, pcm.channels.length, inputs),
    };
  }

  /** An imported source's conditioning for an edit: the prompt's, with the upload's estimated tempo and key unless the prompt names them. */
  function importedConditioning(prompt: string, prompted: Float32Array, estimated: readonly number[]): Float32Array {
    const out = Float32Array.from(prompted);
    const explicit = explicitTempoAndKey(prompt);
    const bpm = fieldIndex(manifest, 'bpm');
    if (explicit.bpm === undefined) out[bpm] = estimated[bpm] ?? out[bpm] ?? 0;
    if (explicit.key === undefined) {
      for (const name of ['key', 'minor'] as const) {
        const i = fieldIndex(manifest, name);
        out[i] = estimated[i] ?? out[i] ?? 0;
      }
    }
    return out;
  }

  async function edit(request: SongEditRequest, signal: AbortSignal): Promise<RenderedSong> {
    const decoded = decodeKeptLatents(request.sourceKept);
    if (!decoded.ok) throw new Error(decoded.error.message);
    const source = decoded.value;
    if (source.header.model.name !== manifest.name || !(source.data instanceof Int16Array)) {
      throw new EditUnsupportedError(
        `the source song was made by ${source.header.model.name}@${source.header.model.version}; this worker runs ${manifest.name}@${manifest.version}`,
      );
    }
    const extra = source.header.extra as { conditioning: number[]; rhythm: number[]; seed: string; imported?: boolean };
    const imported = extra.imported === true;
    const [channels = 2, sourceLength = 0] = source.header.shape;
    const encoded = encodePrompt(request.prompt, manifest.conditioning);
    const conditioning = Float32Array.from(encoded.conditioning);
    // An upload's style is the prompt's; its tempo and key are the estimate, unless the prompt names them.
    const sourceConditioning = imported
      ? importedConditioning(request.prompt, conditioning, extra.conditioning)
      : Float32Array.from(extra.conditioning);
    for (const name of KEPT_FIELDS) {
      const i = fieldIndex(manifest, name);
      conditioning[i] = sourceConditioning[i] ?? 0;
    }
    const rhythm = request.lyrics === null ? Float32Array.from(extra.rhythm) : rhythmOf(request.lyrics);
    const length = request.durationSeconds * rate;
    const edited = request.edit;
    let out: Int16Array;
    let inputs: RenderInputs;
    if (edited.task === 'remix') {
      inputs = {
        conditioning: remixConditioning(manifest, sourceConditioning, conditioning, request.seed, edited.strength),
        rhythm,
        seed: BigInt(extra.seed),
        steps: request.steps,
      };
      out = (await run(inputs, length, signal)).data;
    } else {
      inputs = { conditioning, rhythm, seed: request.seed, steps: request.steps };
      const fresh = (await run(inputs, length, signal)).data;
      const range = editedRange(edited, sourceLength, length, rate);
      out = splice(source.data, sourceLength, fresh, length, channels, range, Math.round(FADE_SECONDS * rate));
      // The kept part keeps being the source's: its seed stays the song's harmony for a later remix.
      inputs = { ...inputs, seed: BigInt(extra.seed) };
    }
    return {
      pcm: toPcm(out, channels, rate),
      conditioning: encoded.values,
      matchedWords: encoded.matched,
      tokens: 0,
      kept: keep(out, channels, inputs, imported),
    };
  }

  /** Uploaded audio as the model's kept state: its channels, its rate, 16 bits. */
  function importAudio(pcm: PcmAudio, signal: AbortSignal): Promise<Uint8Array> {
    signal.throwIfAborted();
    if (pcm.channels.length === 0) return Promise.reject(new EditUnsupportedError('the uploaded audio has no channels'));
    const channels = mixChannels(pcm.channels, manifest.channels).map((channel) => resample(channel, pcm.sampleRate, rate));
    const data = quantize(channels, false);
    // A seed of the upload's own (a remix of the same upload draws the same song), below 2^48 as job seeds are.
    const digest = createHash('sha256')
      .update(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
      .digest();
    const mono = mixChannels(channels, 1)[0] ?? new Float32Array(0);
    const estimate = estimateTempoAndKey(mono, rate);
    const conditioning = encodePrompt('', manifest.conditioning).conditioning;
    conditioning[fieldIndex(manifest, 'bpm')] = estimate.bpm;
    conditioning[fieldIndex(manifest, 'key')] = estimate.key;
    conditioning[fieldIndex(manifest, 'minor')] = estimate.minor ? 1 : 0;
    const inputs: RenderInputs = {
      conditioning,
      rhythm: Float32Array.from(manifest.conditioning.default_rhythm),
      seed: digest.readBigUInt64BE(0) >> 16n,
      steps: manifest.steps[0] ?? 1,
    };
    return Promise.resolve(keep(data, channels.length, inputs, true));
  }

  return {
    editSupport: BUILTIN_EDIT_SUPPORT,
    render,
    edit,
    importSupport: null as string | null,
    importAudio,
  };
}

/**
 * `input` as `count` channels: one channel spread to both, several averaged to one, or for two,
 * the even-numbered channels averaged to the left and the odd-numbered to the right.
 */
function mixChannels(input: readonly Float32Array[], count: 1 | 2): Float32Array[] {
  if (input.length === count) return [...input];
  const length = input[0]?.length ?? 0;
  const average = (channels: readonly Float32Array[]): Float32Array => {
    const out = new Float32Array(length);
    for (const channel of channels) for (let i = 0; i < length; i += 1) out[i] = (out[i] ?? 0) + (channel[i] ?? 0) / channels.length;
    return out;
  };
  if (count === 1) return [average(input)];
  if (input.length === 1) return [input[0] ?? new Float32Array(length), input[0] ?? new Float32Array(length)];
  return [average(input.filter((_, c) => c % 2 === 0)), average(input.filter((_, c) => c % 2 === 1))];
}

/** The samples an extend or repaint makes anew: [from, to). */
function editedRange(edit: EditParameters, sourceLength: number, length: number, rate: number): { from: number; to: number } {
  if (edit.task === 'extend') {
    if (length <= sourceLength)
      throw new EditUnsupportedError(`an extended song must be longer than its source (${sourceLength / rate} s)`);
    return { from: sourceLength, to: length };
  }
  if (edit.task !== 'repaint') throw new Error('not a range edit');
  if (length !== sourceLength) throw new EditUnsupportedError(`a repainted song is as long as its source (${sourceLength / rate} s)`);
  return { from: Math.round(edit.start * rate), to: Math.min(length, Math.round(edit.end * rate)) };
}

/** The source outside `range`, the fresh render inside it, faded over `fade` samples at its inner edges. */
function splice(
  source: Int16Array,
  sourceLength: number,
  fresh: Int16Array,
  length: number,
  channels: number,
  range: { from: number; to: number },
  fade: number,
): Int16Array {
  const out = new Int16Array(channels * length);
  for (let c = 0; c < channels; c += 1) {
    for (let i = 0; i < length; i += 1) {
      const kept = i < range.from || i >= range.to;
      const src = i < sourceLength ? (source[c * sourceLength + i] ?? 0) : 0;
      const neu = fresh[c * length + i] ?? 0;
      if (kept) {
        out[c * length + i] = src;
        continue;
      }
      // Fade in from the source after `from`, back to it before `to` (none at the song's end).
      const fromStart = i - range.from;
      const toEnd = range.to < length ? range.to - 1 - i : fade;
      const w = Math.min(1, Math.min(fromStart, toEnd) / fade);
      out[c * length + i] = Math.round(src * (1 - w) + neu * w);
    }
  }
  return out;
}

function remixConditioning(
  manifest: ModelManifest,
  source: Float32Array,
  prompted: Float32Array,
  seed: bigint,
  strength: number,
): Float32Array {
  const random = seededRandom(seed, 'builtin-remix');
  const out = Float32Array.from(prompted);
  for (const name of STYLE_FIELDS) {
    const i = fieldIndex(manifest, name);
    const field = manifest.conditioning.fields[i];
    if (field === undefined) continue;
    const span = field.max - field.min;
    const draw = Math.min(field.max, Math.max(field.min, (prompted[i] ?? 0) + (random.next() - 0.5) * 0.6 * span));
    out[i] = (source[i] ?? 0) * strength + draw * (1 - strength);
  }
  // A remix always changes the groove: one of the two others, drawn from the edit's seed.
  const groove = fieldIndex(manifest, 'groove');
  out[groove] = (Math.round(source[groove] ?? 0) + 1 + Math.floor(random.next() * 2)) % 3;
  return out;
}
