/**
 * Copies of a song as a copier would make them (issue 44), for `npm run bench:fingerprint` and the
 * fingerprint tests: each made by ffmpeg (an independent tool) from the song's 16-bit WAV, to be
 * read by the product's own upload decoder (core/src/audio/uploaded-audio.ts). AAC is not an
 * upload format: the AAC copy is decoded back to WAV by ffmpeg, as a copier would have to before
 * uploading it.
 *
 * ffmpeg is the reference tool of ./reference-tools.ts (the system's, else the npm package's).
 * One ffmpeg process writes all copies of a song (one input read, many outputs), a second one
 * decodes the AAC copy.
 */
import { join } from 'node:path';
import { runReference } from './reference-tools.ts';

/** ffmpeg from the system, else the npm devDependency's build (./reference-tools.ts). */
const run = (name: 'ffmpeg', args: string[]) => runReference(name, args);

export interface Transformation {
  id: string;
  label: string;
  /** The copy's file name (the decoder recognises its format from the bytes). */
  file: string;
  /** ffmpeg output options for this copy (input 0: the song, 1: other audio, 2: pink noise). */
  output: readonly string[];
}

/** Pink noise at -30 dBFS peak amplitude (anoisesrc's `a`), seeded so every run adds the same noise. */
export const PINK_NOISE_AMPLITUDE = 10 ** (-30 / 20);
/** Seconds of other audio before (and after) the song in the embedded copy. */
export const EMBED_SECONDS = 5;

const wav = ['-c:a', 'pcm_s16le'] as const;

export const TRANSFORMATIONS: readonly Transformation[] = [
  { id: 'mp3-128', label: 'MP3 128 kbps', file: 'mp3-128.mp3', output: ['-map', '0:a', '-c:a', 'libmp3lame', '-b:a', '128k'] },
  { id: 'mp3-192', label: 'MP3 192 kbps', file: 'mp3-192.mp3', output: ['-map', '0:a', '-c:a', 'libmp3lame', '-b:a', '192k'] },
  { id: 'mp3-320', label: 'MP3 320 kbps', file: 'mp3-320.mp3', output: ['-map', '0:a', '-c:a', 'libmp3lame', '-b:a', '320k'] },
  { id: 'aac-128', label: 'AAC 128 kbps (decoded to WAV)', file: 'aac-128.m4a', output: ['-map', '0:a', '-c:a', 'aac', '-b:a', '128k'] },
  { id: 'resample-48k', label: 'resampled to 48 kHz', file: 'resample-48k.wav', output: ['-map', '0:a', '-ar', '48000', ...wav] },
  { id: 'mono', label: 'mono', file: 'mono.wav', output: ['-map', '0:a', '-ac', '1', ...wav] },
  {
    id: 'trim-0.3',
    label: 'trimmed 0.3 s at the start',
    file: 'trim-0.3.wav',
    output: ['-map', '0:a', '-af', 'atrim=start=0.3,asetpts=PTS-STARTPTS', ...wav],
  },
  {
    id: 'trim-2',
    label: 'trimmed 2 s at the start',
    file: 'trim-2.wav',
    output: ['-map', '0:a', '-af', 'atrim=start=2,asetpts=PTS-STARTPTS', ...wav],
  },
  { id: 'gain-6', label: 'gain -6 dB', file: 'gain-6.wav', output: ['-map', '0:a', '-af', 'volume=-6dB', ...wav] },
  { id: 'gain+3', label: 'gain +3 dB', file: 'gain+3.wav', output: ['-map', '0:a', '-af', 'volume=3dB', ...wav] },
  { id: 'embedded', label: `embedded ${EMBED_SECONDS} s into other audio`, file: 'embedded.wav', output: ['-map', '[embedded]', ...wav] },
  { id: 'pink-noise', label: 'pink noise at -30 dB', file: 'pink-noise.wav', output: ['-map', '[noisy]', ...wav] },
];

/**
 * Writes every copy of `song` (a WAV) into `dir`; `other` is unrelated audio of at least
 * 2 × EMBED_SECONDS for the embedded copy. Returns each copy's path by transformation id (the
 * AAC copy as the WAV it was decoded to).
 */
/** A 16-bit PCM WAV of `channels` (samples in [-1, 1]) at `sampleRate`. */
export function wav16(channels: readonly Float32Array[], sampleRate: number): Buffer {
  const count = channels.length;
  const frames = channels[0]?.length ?? 0;
  const out = Buffer.alloc(44 + frames * count * 2);
  out.write('RIFF', 0);
  out.writeUInt32LE(36 + frames * count * 2, 4);
  out.write('WAVEfmt ', 8);
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(count, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * count * 2, 28);
  out.writeUInt16LE(count * 2, 32);
  out.writeUInt16LE(16, 34);
  out.write('data', 36);
  out.writeUInt32LE(frames * count * 2, 40);
  for (let i = 0; i < frames; i += 1) {
    for (let c = 0; c < count; c += 1) {
      const value = Math.round(((channels[c] as Float32Array)[i] as number) * 32768);
      out.writeInt16LE(Math.max(-32768, Math.min(32767, value)), 44 + (i * count + c) * 2);
    }
  }
  return out;
}

/** One copy of `song` (a WAV) by ffmpeg with `output` options (e.g. `-af atrim=…` and a codec) into `path`. */
export async function makeCopy(song: string, path: string, output: readonly string[]): Promise<void> {
  await run('ffmpeg', ['-v', 'error', '-y', '-i', song, ...output, path]);
}

export async function makeCopies(song: string, other: string, dir: string, seed: number): Promise<Map<string, string>> {
  const graph = [
    `[1:a]atrim=0:${EMBED_SECONDS},asetpts=PTS-STARTPTS[before]`,
    `[1:a]atrim=${EMBED_SECONDS}:${2 * EMBED_SECONDS},asetpts=PTS-STARTPTS[after]`,
    `[before][0:a][after]concat=n=3:v=0:a=1[embedded]`,
    `[0:a][2:a]amix=inputs=2:duration=first:normalize=0[noisy]`,
  ].join(';');
  const args = [
    '-v',
    'error',
    '-y',
    '-i',
    song,
    '-i',
    other,
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=c=pink:r=44100:a=${PINK_NOISE_AMPLITUDE.toFixed(6)}:seed=${seed}`,
    '-filter_complex',
    graph,
  ];
  for (const t of TRANSFORMATIONS) args.push(...t.output, join(dir, t.file));
  await run('ffmpeg', args);
  await run('ffmpeg', ['-v', 'error', '-y', '-i', join(dir, 'aac-128.m4a'), ...wav, join(dir, 'aac-128.wav')]);
  return new Map(TRANSFORMATIONS.map((t) => [t.id, join(dir, t.id === 'aac-128' ? 'aac-128.wav' : t.file)]));
}
