/**
 * A Songmint-manifest model (one ONNX graph fed by role) as a song model: the prompt's words
 * become the conditioning vector, the lyrics' first sung line the rhythm, the seed two floats.
 */
import { lyricsRhythm } from '../lyrics/lyrics-rhythm.ts';
import type { MusicModel } from './runtime.ts';
import { seedToModelInput } from './seed.ts';
import type { SongModel } from './song-model.ts';
import { encodePrompt } from './text-encoder.ts';

export function songModelFromOnnx(model: MusicModel): SongModel {
  const manifest = model.manifest;
  return {
    format: 'songmint-onnx',
    name: manifest.name,
    version: manifest.version,
    licence: manifest.licence,
    device: model.device,
    fallbackReason: model.fallbackReason,
    steps: manifest.steps,
    sampleRate: manifest.sample_rate,
    async render(request, signal) {
      const encoded = encodePrompt(request.prompt, manifest.conditioning);
      const rhythm =
        request.lyrics === null
          ? Float32Array.from(manifest.conditioning.default_rhythm)
          : lyricsRhythm(request.lyrics, manifest.conditioning.default_rhythm);
      const pcm = await model.generate(
        {
          conditioning: encoded.conditioning,
          seed: seedToModelInput(request.seed),
          rhythm,
          numSamples: request.durationSeconds * manifest.sample_rate,
          steps: request.steps,
        },
        signal,
      );
      return { pcm, conditioning: encoded.values, matchedWords: encoded.matched, tokens: 0 };
    },
    release: () => model.release(),
  };
}
