/**
 * A Songmint-manifest model (one ONNX graph fed by role) as a song model: the prompt's words
 * become the conditioning vector, the lyrics' first sung line the rhythm, the seed two floats.
 * Its edits are ./builtin-edits.ts.
 */
import { builtinRenderer } from './builtin-edits.ts';
import type { MusicModel } from './runtime.ts';
import type { SongModel } from './song-model.ts';

export function songModelFromOnnx(model: MusicModel): SongModel {
  const manifest = model.manifest;
  const renderer = builtinRenderer(model);
  return {
    format: 'songmint-onnx',
    name: manifest.name,
    version: manifest.version,
    licence: manifest.licence,
    device: model.device,
    fallbackReason: model.fallbackReason,
    steps: manifest.steps,
    sampleRate: manifest.sample_rate,
    // A procedural lead voice follows the lyrics' rhythm; it sings no words.
    sings: false,
    editSupport: renderer.editSupport,
    render: (request, signal) => renderer.render(request, signal),
    edit: (request, signal) => renderer.edit(request, signal),
    importSupport: renderer.importSupport,
    importAudio: (pcm, signal) => renderer.importAudio(pcm, signal),
    release: () => model.release(),
  };
}
