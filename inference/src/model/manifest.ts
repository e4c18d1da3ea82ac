/**
 * The model directory contract: `manifest.json` beside the ONNX file. It names the model, its
 * audio format, what each graph input and output means (by role, so the runtime knows how to feed
 * it) and the conditioning vocabulary the text encoder uses. A real model is dropped in by
 * pointing MODEL_DIR at a directory with such a manifest.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { DomainError, Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';
import { ModelLicence } from './licence.ts';

export const MANIFEST_FILE = 'manifest.json';

/** Roles the runtime knows how to feed. */
export const InputRole = z.enum(['conditioning', 'seed', 'rhythm', 'num_samples', 'steps']);
export type InputRole = z.infer<typeof InputRole>;

const Dim = z.union([z.number().int().positive(), z.string().min(1)]);

const TensorSpec = z.object({
  name: z.string().min(1),
  type: z.enum(['float32', 'int64']),
  shape: z.array(Dim),
  meaning: z.string().min(1),
});

const ConditioningField = z.object({
  name: z.string().min(1),
  default: z.number(),
  min: z.number(),
  max: z.number(),
  meaning: z.string().min(1),
});

/** A vocabulary entry: fields it sets, then amounts it adds (clamped to each field's range). */
const VocabularyEntry = z.object({
  set: z.record(z.string(), z.number()).optional(),
  add: z.record(z.string(), z.number()).optional(),
});
export type VocabularyEntry = z.infer<typeof VocabularyEntry>;

export const ModelManifest = z
  .object({
    format: z.literal('songmint-model/1'),
    name: z.string().min(1),
    version: z.string().min(1),
    description: z.string().min(1),
    /** The weights' licence: recorded on every job, read by the oracle's mint guard. */
    licence: ModelLicence,
    file: z.string().min(1),
    sample_rate: z.union([z.literal(44100), z.literal(48000)]),
    channels: z.union([z.literal(1), z.literal(2)]),
    steps: z.array(z.number().int().positive()).min(1),
    inputs: z.array(TensorSpec.extend({ role: InputRole })).min(1),
    outputs: z.array(TensorSpec.extend({ role: z.literal('audio'), layout: z.literal('planar') })).length(1),
    conditioning: z.object({
      fields: z.array(ConditioningField).min(1),
      vocabulary: z.record(z.string(), VocabularyEntry),
      default_rhythm: z.array(z.number().min(0).max(1)).length(16),
    }),
  })
  .superRefine((m, ctx) => {
    const names = new Set(m.conditioning.fields.map((f) => f.name));
    for (const [phrase, entry] of Object.entries(m.conditioning.vocabulary)) {
      for (const field of [...Object.keys(entry.set ?? {}), ...Object.keys(entry.add ?? {})]) {
        if (!names.has(field)) ctx.addIssue({ code: 'custom', message: `vocabulary "${phrase}" names unknown field "${field}"` });
      }
    }
    const roles = m.inputs.map((i) => i.role);
    if (new Set(roles).size !== roles.length) ctx.addIssue({ code: 'custom', message: 'input roles must be unique' });
  });
export type ModelManifest = z.infer<typeof ModelManifest>;

export type ManifestError = DomainError<'MODEL_MANIFEST_MISSING' | 'MODEL_MANIFEST_INVALID'>;
export type ManifestResult = Result<{ manifest: ModelManifest; modelPath: string }, ManifestError>;

export async function readManifest(modelDir: string): Promise<ManifestResult> {
  let text: string;
  try {
    text = await readFile(join(modelDir, MANIFEST_FILE), 'utf8');
  } catch (err) {
    return fail({ code: 'MODEL_MANIFEST_MISSING', message: `no ${MANIFEST_FILE} in ${modelDir}: ${String(err)}` });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return fail({ code: 'MODEL_MANIFEST_INVALID', message: `${MANIFEST_FILE} is not JSON: ${String(err)}` });
  }
  const parsed = ModelManifest.safeParse(json);
  if (!parsed.success) {
    return fail({ code: 'MODEL_MANIFEST_INVALID', message: z.prettifyError(parsed.error) });
  }
  return ok({ manifest: parsed.data, modelPath: join(modelDir, parsed.data.file) });
}
