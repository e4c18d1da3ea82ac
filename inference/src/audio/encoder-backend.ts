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

/** Command line that reads interleaved s16le (lame) or f32le (ffmpeg) PCM on stdin and writes bare frames. */
export function nativeCommand(
  backend: 'lame' | 'ffmpeg',
  sampleRate: number,
  channels: number,
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
