/** The files of the built-in model directory, as bytes: the ONNX graph and its manifest. */
import { BUILTIN_DEFAULT_RHYTHM, BUILTIN_VOCABULARY } from './builtin-vocabulary.ts';
import { BUILTIN_MODEL_NAME, BUILTIN_MODEL_VERSION, BUILTIN_SAMPLE_RATE, CONDITIONING_FIELDS } from './builtin/conditioning.ts';
import { buildBuiltinModel } from './builtin-graph.ts';
import type { ModelManifest } from './manifest.ts';
import { jsonFileBytes } from './onnx-builder.ts';

export const BUILTIN_MODEL_FILE = 'model.onnx';

export function builtinManifest(): ModelManifest {
  return {
    format: 'songmint-model/1',
    name: BUILTIN_MODEL_NAME,
    version: BUILTIN_MODEL_VERSION,
    description:
      'A small built-in procedural music model for development and CPU-only hosts: an ONNX graph (no learned weights) that ' +
      'renders a chord pad, bass, drums and a melody refined over `steps` iterations, conditioned on prompt words.',
    licence: { spdx: 'MIT', commercial_use: true },
    file: BUILTIN_MODEL_FILE,
    sample_rate: BUILTIN_SAMPLE_RATE,
    channels: 2,
    steps: [27, 60],
    inputs: [
      {
        name: 'conditioning',
        role: 'conditioning',
        type: 'float32',
        shape: [CONDITIONING_FIELDS.length],
        meaning: 'conditioning vector, fields in conditioning.fields order',
      },
      { name: 'seed', role: 'seed', type: 'float32', shape: [2], meaning: 'the job seed as two floats in [0, 1000)' },
      {
        name: 'rhythm',
        role: 'rhythm',
        type: 'float32',
        shape: [16],
        meaning: 'melody accent per sixteenth note of a bar (from lyrics syllables)',
      },
      { name: 'num_samples', role: 'num_samples', type: 'int64', shape: [1], meaning: 'samples per channel = duration x sample_rate' },
      {
        name: 'steps',
        role: 'steps',
        type: 'int64',
        shape: [1],
        meaning: 'refinement iterations of the melody latent; partials = floor(steps / 9)',
      },
    ],
    outputs: [
      {
        name: 'audio',
        role: 'audio',
        layout: 'planar',
        type: 'float32',
        shape: [2, 'num_samples'],
        meaning: 'stereo PCM in [-1, 1], channel-major',
      },
    ],
    conditioning: {
      fields: CONDITIONING_FIELDS.map((f) => ({ ...f })),
      vocabulary: { ...BUILTIN_VOCABULARY },
      default_rhythm: [...BUILTIN_DEFAULT_RHYTHM],
    },
  };
}

export function builtinModelFiles(): Record<string, Uint8Array> {
  return {
    [BUILTIN_MODEL_FILE]: buildBuiltinModel(),
    'manifest.json': jsonFileBytes(builtinManifest()),
  };
}
