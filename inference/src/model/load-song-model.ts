/**
 * Loads a model directory in whichever layout it holds: a Songmint manifest over one ONNX graph
 * (the built-in model, `manifest.json`), or the public MusicGen ONNX export (`config.json` +
 * `onnx/`), which runs as text encoder, autoregressive decoder with key/value cache and EnCodec
 * decoder; or an ACE-Step 1.5 export with `songmint-acestep.json` (checked first: a public
 * ACE-Step export carries a `manifest.json` of its own that is not a Songmint manifest).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fail, ok } from '../../../core/src/result.ts';
import { loadAcestepModel } from './acestep/acestep-model.ts';
import { HUB_RECORD_FILE } from './acestep/hub-presets.ts';
import { XL_TURBO } from './acestep/layouts.ts';
import { ACESTEP_MANIFEST_FILE, IO_CONTRACT_CORE_FILE } from './acestep/manifest.ts';
import { MANIFEST_FILE } from './manifest.ts';
import { loadMusicgenModel } from './musicgen/musicgen-model.ts';
import { MUSICGEN_CONFIG_FILE } from './musicgen/layout.ts';
import { songModelFromOnnx } from './onnx-song-model.ts';
import type { LoadModelOptions } from './runtime.ts';
import { loadModel } from './runtime.ts';
import type { LoadSongModelResult } from './song-model.ts';

/** Loads the model directory in whichever layout it holds. */
export async function loadSongModel(options: LoadModelOptions): Promise<LoadSongModelResult> {
  if (existsSync(join(options.modelDir, ACESTEP_MANIFEST_FILE))) {
    return loadAcestepModel(options);
  }
  // A public ACE-Step export (or a fetched Hub set) carries a manifest.json that is not ours.
  const xlFiles = (XL_TURBO.graphs.dit?.files ?? []).map((f) => f.file);
  const acestepExport = [IO_CONTRACT_CORE_FILE, HUB_RECORD_FILE, ...xlFiles].find((file) => existsSync(join(options.modelDir, file)));
  if (acestepExport !== undefined) {
    return fail({
      code: 'MODEL_MANIFEST_MISSING',
      message: `${options.modelDir} holds an ACE-Step 1.5 export (${acestepExport}) without ${ACESTEP_MANIFEST_FILE}: run npm run model:import -- ${options.modelDir}`,
    });
  }
  if (existsSync(join(options.modelDir, MANIFEST_FILE))) {
    const loaded = await loadModel(options);
    return loaded.ok ? ok(songModelFromOnnx(loaded.value)) : loaded;
  }
  if (existsSync(join(options.modelDir, MUSICGEN_CONFIG_FILE))) return loadMusicgenModel(options);
  return fail({
    code: 'MODEL_MANIFEST_MISSING',
    message: `${options.modelDir} holds neither ${ACESTEP_MANIFEST_FILE} (ACE-Step 1.5), ${MANIFEST_FILE} (a Songmint ONNX model) nor ${MUSICGEN_CONFIG_FILE} (a MusicGen ONNX export)`,
  });
}
