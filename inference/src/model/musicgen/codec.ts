/**
 * `encodec_decode.onnx`: codes `[1, batch, codebooks, frames]` (int64) to audio
 * `[batch, 1, frames x samples_per_frame]`. A long song is decoded in chunks, each with some
 * frames of left context that are decoded again and dropped, so the decoder's convolutions and
 * LSTM start each chunk warm and memory stays bounded.
 */
import * as ort from 'onnxruntime-node';

export interface CodecChunking {
  chunkFrames: number;
  contextFrames: number;
}

/** 30 s chunks with 1 s of context at MusicGen's 50 frames a second. */
export const DEFAULT_CHUNKING: CodecChunking = { chunkFrames: 1500, contextFrames: 50 };

export async function decodeCodes(
  session: ort.InferenceSession,
  codes: readonly Int32Array[],
  samplesPerFrame: number,
  chunking: CodecChunking,
  signal: AbortSignal,
): Promise<Float32Array> {
  const K = codes.length;
  const frames = codes[0]?.length ?? 0;
  const audio = new Float32Array(frames * samplesPerFrame);
  for (let start = 0; start < frames; start += chunking.chunkFrames) {
    if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
    const end = Math.min(frames, start + chunking.chunkFrames);
    const from = Math.max(0, start - chunking.contextFrames);
    const width = end - from;
    const input = new BigInt64Array(K * width);
    for (let k = 0; k < K; k += 1) {
      const row = codes[k] as Int32Array;
      for (let f = 0; f < width; f += 1) input[k * width + f] = BigInt(row[from + f] ?? 0);
    }
    const out = await session.run({ audio_codes: new ort.Tensor('int64', input, [1, 1, K, width]) }, ['audio_values']);
    const values = out.audio_values;
    if (values === undefined || values.type !== 'float32') throw new Error('codec returned no float32 audio_values');
    const data = values.data as Float32Array;
    const skip = (start - from) * samplesPerFrame;
    const take = (end - start) * samplesPerFrame;
    if (data.length < skip + take)
      throw new Error(`codec returned ${data.length} samples for ${width} frames, expected ${width * samplesPerFrame}`);
    audio.set(data.subarray(skip, skip + take), start * samplesPerFrame);
  }
  return audio;
}
