/**
 * Which MP3 encoder runs: a native `lame` or `ffmpeg` (libmp3lame) on PATH when present, else
 * LAME compiled to WebAssembly (wasm-media-encoders), which needs no system package.
 */
import { commandOutput } from '../system-command.ts';

export type EncoderBackend = 'lame' | 'ffmpeg' | 'wasm';
export type EncoderPreference = 'auto' | EncoderBackend;

export interface BinaryProbe {
  lame(): boolean;
  ffmpegWithLame(): boolean;
}

export const systemBinaryProbe: BinaryProbe = {
  lame: () => commandOutput('lame', ['--version']) !== undefined,
  ffmpegWithLame: () => commandOutput('ffmpeg', ['-hide_banner', '-encoders'])?.includes('libmp3lame') === true,
};

export function selectEncoderBackend(preference: EncoderPreference, probe: BinaryProbe): EncoderBackend {
  if (preference !== 'auto') return preference;
  if (probe.lame()) return 'lame';
  if (probe.ffmpegWithLame()) return 'ffmpeg';
  return 'wasm';
}

/**
 * LAME's algorithm quality (0 best and slowest, 9 fastest) for the native encoders. 5 keeps the
 * psychoacoustic model and the noise shaping, and leaves out what 3 (LAME 3.100's default) adds
 * on top: a finer choice of the bands the outer loop amplifies, its stopping rule, and the best
 * Huffman table split. It was LAME's own default for years (lame.c 1.100, 2001: "case 5: the
 * default"). At 320 kbps CBR it keeps what 3 keeps, for about a fifth less CPU: third-octave
 * band SNR within 0.5 dB of 3's on a built-in 240 s song (bench/lame-quality.ts) and on a Wesnoth
 * track. 7 saves more but drops the noise shaping: its worst band loses 4-5 dB on both. The wasm
 * build exposes no such setting and runs its own default.
 */
export const LAME_ALGORITHM_QUALITY = 5;

/**
 * Command line that reads interleaved s16le (lame) or f32le (ffmpeg) PCM on stdin and writes bare
 * frames; `quality` is for bench/lame-quality.ts, which sets the worker's beside others.
 */
export function nativeCommand(
  backend: 'lame' | 'ffmpeg',
  sampleRate: number,
  channels: number,
  quality: number = LAME_ALGORITHM_QUALITY,
): { cmd: string; args: string[]; sampleFormat: 's16le' | 'f32le' } {
  if (backend === 'lame') {
    return {
      cmd: 'lame',
      args: [
        '--quiet',
        '-r',
        '-s',
        String(sampleRate / 1000),
        '--bitwidth',
        '16',
        '--signed',
        '--little-endian',
        '-m',
        channels === 1 ? 'm' : 'j',
        '-q',
        String(quality),
        '-b',
        '320',
        '--cbr',
        '-t',
        '-',
        '-',
      ],
      sampleFormat: 's16le',
    };
  }
  return {
    cmd: 'ffmpeg',
    args: [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'f32le',
      '-ar',
      String(sampleRate),
      '-ac',
      String(channels),
      '-i',
      'pipe:0',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '320k',
      '-compression_level',
      String(quality),
      '-write_xing',
      '0',
      '-id3v2_version',
      '0',
      '-write_id3v1',
      '0',
      '-f',
      'mp3',
      'pipe:1',
    ],
    sampleFormat: 'f32le',
  };
}
