/**
 * What a copier does to a song to hide it (issue 50): voice-over, EQ, filters, compression,
 * telephone band, low-bitrate MP3, noise, short excerpts, splices and speed, pitch and tempo
 * changes, each made by an independent tool (ffmpeg, sox, rubberband, espeak-ng) from the song's
 * 16-bit WAV, for `npm run bench:fingerprint` and test/core/landmark-fingerprint.test.ts. The
 * copies are read back by ffmpeg as 32-bit float PCM at the source rate.
 *
 * Sources: Debian's `wesnoth-1.16-music` (orchestral OGG nobody here made) where installed, and
 * the built-in model's songs. `copierTools()` says which tool is missing, for a skip.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onSystemPath, runReference } from './reference-tools.ts';
import { wav16 } from './audio-copies.ts';

const exec = promisify(execFile);

/** Where Debian's wesnoth-1.16-music puts its 41 OGG tracks. */
export const WESNOTH_MUSIC_DIR = '/usr/share/games/wesnoth/1.16/data/core/music';

/** The OGG tracks of wesnoth-1.16-music, sorted, or a reason they are not there. */
export function wesnothTracks(): { tracks: string[] } | { missing: string } {
  if (!existsSync(WESNOTH_MUSIC_DIR)) return { missing: `no ${WESNOTH_MUSIC_DIR} (apt-get install wesnoth-1.16-music)` };
  const tracks = readdirSync(WESNOTH_MUSIC_DIR)
    .filter((name) => name.endsWith('.ogg'))
    .sort()
    .map((name) => join(WESNOTH_MUSIC_DIR, name));
  return tracks.length === 0 ? { missing: `no OGG tracks in ${WESNOTH_MUSIC_DIR}` } : { tracks };
}

/** The system tools the copies need; the first one missing, or null. */
export function missingCopierTool(): string | null {
  for (const tool of ['ffmpeg', 'sox', 'rubberband', 'espeak-ng']) if (onSystemPath(tool) === undefined) return `no ${tool} on PATH`;
  return null;
}

export interface Pcm {
  channels: Float32Array[];
  sampleRate: number;
}

/** `path` decoded by ffmpeg to float PCM (`channels` channels at `sampleRate`), from `start` s for `seconds` s (all when absent). */
export async function decodeWithFfmpeg(path: string, sampleRate: number, channels: number, start = 0, seconds?: number): Promise<Pcm> {
  const window = ['-ss', String(start), ...(seconds === undefined ? [] : ['-t', String(seconds)])];
  const { stdout } = await runReference('ffmpeg', [
    '-v',
    'error',
    ...window,
    '-i',
    path,
    '-f',
    'f32le',
    '-ac',
    String(channels),
    '-ar',
    String(sampleRate),
    '-',
  ]);
  const all = new Float32Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.byteLength / 4)).slice();
  const frames = Math.floor(all.length / channels);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  for (let i = 0; i < frames; i += 1) for (let c = 0; c < channels; c += 1) (out[c] as Float32Array)[i] = all[i * channels + c] as number;
  return { channels: out, sampleRate };
}

/** Seconds of a song the benchmark copies (and tests that copy as it does). */
export const COPIED_EXCERPT_SECONDS = 25;

/** The excerpt of a built-in song that is copied: `COPIED_EXCERPT_SECONDS` from 2.5 s. */
export function builtinExcerpt(song: Pcm): Pcm {
  const from = Math.round(2.5 * song.sampleRate);
  return {
    sampleRate: song.sampleRate,
    channels: song.channels.map((c) => c.slice(from, from + COPIED_EXCERPT_SECONDS * song.sampleRate)),
  };
}

/**
 * The other music mixed over copies of built-in songs (and the splice's filler): a built-in song
 * of another prompt, registered nowhere, a second longer than the excerpt.
 */
export const BUILTIN_OTHER_MUSIC = { prompt: 'experimental noise', seed: 1_000_003, seconds: COPIED_EXCERPT_SECONDS + 1 } as const;

/** The mean of the first two channels (a mono song's one channel as it is). */
export function monoMix(pcm: Pcm): Float32Array {
  const left = pcm.channels[0] as Float32Array;
  const right = pcm.channels[1] ?? left;
  return Float32Array.from(left, (s, i) => (s + (right[i] as number)) / 2);
}

/** The RMS over every sample of `channels`, one channel after the other. */
const rms = (...channels: readonly Float32Array[]): number => {
  let sum = 0;
  let count = 0;
  for (const samples of channels) {
    for (const s of samples) sum += s * s;
    count += samples.length;
  }
  return Math.sqrt(sum / Math.max(1, count));
};

/** `over` mixed into `song` (both at the song's rate) `belowDb` under the song's RMS, over its active stretches; clipped to [-1, 1]. */
export function mixBelow(song: Pcm, over: Float32Array, belowDb: number): Pcm {
  const active = over.filter((s) => Math.abs(s) > 1e-3);
  const songRms = rms(...song.channels);
  const gain = (songRms * 10 ** (-belowDb / 20)) / Math.max(1e-9, rms(active));
  return {
    sampleRate: song.sampleRate,
    channels: song.channels.map((channel) => {
      const mixed = new Float32Array(channel.length);
      for (let i = 0; i < channel.length; i += 1) {
        mixed[i] = Math.max(-1, Math.min(1, (channel[i] as number) + gain * ((over[i % over.length] as number) ?? 0)));
      }
      return mixed;
    }),
  };
}

export interface CopierTransformation {
  id: string;
  label: string;
  /** Makes the copy of `song` (a 16-bit WAV at 44.1 kHz, the excerpt) into `dir`; returns its path. */
  make(song: string, dir: string, context: CopyContext): Promise<string>;
  /** Seconds of the excerpt the copy holds when shorter than the whole (the excerpt, a splice). */
  seconds?: number;
}

export interface CopyContext {
  /** The excerpt decoded (44.1 kHz stereo). */
  pcm: Pcm;
  /** Unrelated music at 44.1 kHz mono at least as long as the excerpt (another track). */
  otherMusic: Float32Array;
  /** A seed for the speech text and the noise. */
  seed: number;
}

const SPEECH = [
  'This is my new track, I made it last night in my bedroom studio, please like and subscribe for more.',
  'Welcome back to the channel. Today we are listening to something special, stay until the end.',
  'Check out the link in the description, and tell me in the comments what you think of this one.',
  'Hello everyone, this is a little tune I composed for my game, I hope you enjoy it as much as I do.',
];

const ffmpegFilter = (id: string, label: string, filter: string, extra: readonly string[] = []): CopierTransformation => ({
  id,
  label,
  async make(song, dir) {
    const out = join(dir, `${id}.wav`);
    await runReference('ffmpeg', ['-v', 'error', '-y', '-i', song, '-af', filter, ...extra, '-c:a', 'pcm_s16le', out]);
    return out;
  },
});

const rubberband = (id: string, label: string, args: readonly string[]): CopierTransformation => ({
  id,
  label,
  async make(song, dir) {
    const out = join(dir, `${id}.wav`);
    await exec('rubberband', ['-q', ...args, song, out]);
    return out;
  },
});

const sox = (id: string, label: string, effect: readonly string[]): CopierTransformation => ({
  id,
  label,
  async make(song, dir) {
    const out = join(dir, `${id}.wav`);
    await exec('sox', [song, out, ...effect]);
    return out;
  },
});

async function writePcm(path: string, pcm: Pcm): Promise<string> {
  await writeFile(path, wav16(pcm.channels, pcm.sampleRate));
  return path;
}

/** Seconds of the shortest excerpt a copy may hold (the registry's match window). */
export const EXCERPT_SECONDS = 10;

/** Every transformation issue 50 lists, in its order. */
export const COPIER_TRANSFORMATIONS: readonly CopierTransformation[] = [
  {
    id: 'speech',
    label: 'speech over the song, 10 dB below',
    async make(_song, dir, context) {
      const speechPath = join(dir, 'speech-voice.wav');
      const text = Array.from({ length: 4 }, (_, i) => SPEECH[(context.seed + i) % SPEECH.length]).join(' ');
      await exec('espeak-ng', ['-s', '150', '-w', speechPath, text]);
      const voice = await decodeWithFfmpeg(speechPath, context.pcm.sampleRate, 1);
      return writePcm(join(dir, 'speech.wav'), mixBelow(context.pcm, voice.channels[0] as Float32Array, 10));
    },
  },
  {
    id: 'music-over',
    label: 'other music over the song, 10 dB below',
    async make(_song, dir, context) {
      return writePcm(join(dir, 'music-over.wav'), mixBelow(context.pcm, context.otherMusic, 10));
    },
  },
  ffmpegFilter('bass-shelf', 'bass shelf +6 dB', 'bass=g=6:f=150'),
  ffmpegFilter('highpass', 'high-pass 200 Hz', 'highpass=f=200:poles=2,highpass=f=200:poles=2'),
  ffmpegFilter('lowpass', 'low-pass 2 kHz', 'lowpass=f=2000:poles=2,lowpass=f=2000:poles=2'),
  ffmpegFilter(
    'compressor',
    'compression 6:1 with a limiter',
    'acompressor=threshold=-30dB:ratio=6:attack=5:release=50:makeup=4,alimiter=limit=0.5',
  ),
  ffmpegFilter('telephone', 'telephone band, 8 kHz mono', 'highpass=f=300,lowpass=f=3400', ['-ar', '8000', '-ac', '1']),
  {
    id: 'mp3-64',
    label: 'MP3 64 kbps',
    async make(song, dir) {
      const out = join(dir, 'mp3-64.mp3');
      await runReference('ffmpeg', ['-v', 'error', '-y', '-i', song, '-c:a', 'libmp3lame', '-b:a', '64k', out]);
      return out;
    },
  },
  {
    id: 'noise',
    label: 'white noise, 15 dB below',
    async make(_song, dir, context) {
      let state = context.seed * 2654435761 + 1;
      const noise = new Float32Array(context.pcm.sampleRate * 5).map(() => {
        state = (state * 1103515245 + 12345) % 2147483648;
        return state / 1073741824 - 1;
      });
      return writePcm(join(dir, 'noise.wav'), mixBelow(context.pcm, noise, 15));
    },
  },
  ffmpegFilter('excerpt-10', `excerpt of ${EXCERPT_SECONDS} s`, `atrim=start=7:duration=${EXCERPT_SECONDS},asetpts=PTS-STARTPTS`),
  {
    id: 'splice',
    label: 'splice: 6 s, 6 s cut, 6 s, other music 5 s',
    seconds: 12,
    async make(_song, dir, context) {
      const rate = context.pcm.sampleRate;
      const pieces = context.pcm.channels.map((channel) => {
        const other = context.otherMusic.subarray(0, 5 * rate).map((s) => s * 0.5);
        const out = new Float32Array(channel.length);
        out.set(channel.subarray(2 * rate, 8 * rate), 0);
        out.set(channel.subarray(14 * rate, 20 * rate), 6 * rate);
        out.set(other, 12 * rate);
        return out.subarray(0, 17 * rate);
      });
      return writePcm(join(dir, 'splice.wav'), { channels: pieces, sampleRate: rate });
    },
  },
  sox('speed+2', 'speed +2% (tempo and pitch)', ['speed', '1.02']),
  sox('speed-2', 'speed -2% (tempo and pitch)', ['speed', '0.98']),
  rubberband('pitch+1', 'pitch +1 semitone, tempo kept', ['-p', '1']),
  rubberband('pitch-1', 'pitch -1 semitone, tempo kept', ['-p', '-1']),
  rubberband('tempo+5', 'tempo +5%, pitch kept', ['-T', '1.05']),
  rubberband('tempo-5', 'tempo -5%, pitch kept', ['-T', '0.95']),
];

/**
 * Transpositions of a semitone and a half, tempo kept: past the semitone the upload's views undo
 * (core/src/fingerprint/query-views.ts), where a copy's votes can fall short of a match and the
 * evidence on its spectrogram decides (core/src/fingerprint/spectrogram-evidence.ts).
 */
export const WIDER_TRANSPOSITIONS: readonly CopierTransformation[] = [
  rubberband('pitch+1.5', 'pitch +1.5 semitones, tempo kept', ['-p', '1.5']),
  rubberband('pitch-1.5', 'pitch -1.5 semitones, tempo kept', ['-p', '-1.5']),
];

/**
 * Every copy of the excerpt `pcm` (44.1 kHz stereo) into `dir`: its WAV first, then each
 * transformation's file, by id. `otherMusic` is unrelated music (44.1 kHz mono).
 */
export async function makeCopierCopies(pcm: Pcm, otherMusic: Float32Array, dir: string, seed: number): Promise<Map<string, string>> {
  const song = await writePcm(join(dir, 'source.wav'), pcm);
  const context: CopyContext = { pcm, otherMusic, seed };
  const copies = new Map<string, string>();
  for (const t of COPIER_TRANSFORMATIONS) copies.set(t.id, await t.make(song, dir, context));
  return copies;
}
