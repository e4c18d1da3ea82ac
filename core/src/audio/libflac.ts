/**
 * libFLAC (libflacjs: libFLAC compiled to WebAssembly, MIT/BSD-3-Clause), loaded once per
 * process: the workers encode a song's FLAC master with it (inference/src/audio/lossless.ts) and
 * both services decode an uploaded FLAC with it (../uploaded-audio.ts). Only the calls used here
 * are typed.
 */
import { createRequire } from 'node:module';

/** What the decoder's write callback gets per block: each channel's samples, and the block's header. */
export interface FlacBlockInfo {
  blocksize: number;
  channels: number;
  bitsPerSample: number;
  sampleRate: number;
}

export interface FlacStreamInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  total_samples: number;
  md5sum: string;
}

export interface LibFlac {
  isReady(): boolean;
  on(event: 'ready', listener: () => void): void;
  create_libflac_encoder(
    sampleRate: number,
    channels: number,
    bps: number,
    level: number,
    totalSamples: number,
    verify: boolean,
    blockSize: number,
  ): number;
  init_encoder_stream(
    encoder: number,
    write: (data: Uint8Array) => void,
    metadata: (info: { md5sum: string; min_framesize: number; max_framesize: number } | undefined) => void,
  ): number;
  FLAC__stream_encoder_process_interleaved(encoder: number, buffer: Int32Array, frames: number): boolean;
  FLAC__stream_encoder_finish(encoder: number): boolean;
  FLAC__stream_encoder_delete(encoder: number): void;
  FLAC__stream_encoder_get_state(encoder: number): number;
  create_libflac_decoder(verify: boolean): number;
  init_decoder_stream(
    decoder: number,
    read: (bytes: number) => { buffer: Uint8Array | undefined; readDataLength: number; error: boolean },
    /** `false` aborts the decoder (FLAC__STREAM_DECODER_WRITE_STATUS_ABORT). */
    write: (data: Uint8Array[], info: FlacBlockInfo) => boolean,
    error: (code: number, description: string) => void,
    metadata: (info: FlacStreamInfo | undefined) => void,
  ): number;
  FLAC__stream_decoder_process_until_end_of_stream(decoder: number): boolean;
  FLAC__stream_decoder_get_state(decoder: number): number;
  FLAC__stream_decoder_finish(decoder: number): boolean;
  FLAC__stream_decoder_delete(decoder: number): void;
}

let libFlac: Promise<LibFlac> | undefined;

/**
 * libFLAC, loaded once per process. Its Emscripten loader fetches the .wasm with `fetch` when
 * one exists, which Node's cannot do for a file path; with `fetch` hidden for the synchronous
 * `require` it reads the file from disk instead (nothing else runs meanwhile).
 */
export function loadLibFlac(): Promise<LibFlac> {
  libFlac ??= new Promise<LibFlac>((resolve) => {
    const require = createRequire(import.meta.url);
    const globals = globalThis as { fetch?: unknown };
    const fetch = globals.fetch;
    let flac: LibFlac;
    try {
      globals.fetch = undefined;
      flac = (require('libflacjs') as (variant: string) => LibFlac)('min.wasm');
    } finally {
      globals.fetch = fetch;
    }
    if (flac.isReady()) resolve(flac);
    else flac.on('ready', () => resolve(flac));
  });
  return libFlac;
}
