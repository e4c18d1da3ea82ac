/**
 * The Hugging Face Hub repositories `npm run model:fetch` reads for ACE-Step 1.5, DiT-only: the
 * ONNX repository made for ONNX Runtime (shreyask/ACE-Step-v1.5-ONNX: `onnx/` fp32, `onnx_fp16/`
 * with `_fp16` names, `onnx_q4/` with `_q4` names; `text_encoder` is Qwen3-Embedding-0.6B,
 * `text_embed_tokens` its token table; the condition encoder comes as `text_projector`,
 * `lyric_encoder` and `timbre_encoder`, packed on the host, or in some versions combined),
 * and the checkpoint repository (ACE-Step/Ace-Step1.5) for the silence latent and the tokenizer.
 * Which file plays which role, with its external-data sidecars, is chosen from the repository's
 * own listing, and recorded with every file's sha256 in `songmint-hub-files.json`, which
 * `model:import` verifies the directory against.
 */
import { z } from 'zod';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import type { RemoteFile } from '../hub-download.ts';
import type { GraphName } from './contract.ts';
import { COMBINED_ENCODER, encoderLayout, GRAPH_NAMES, OPTIONAL_GRAPHS, SPLIT_ENCODER } from './contract.ts';
import { RelativePath } from './manifest.ts';

export const HUB_RECORD_FILE = 'songmint-hub-files.json';
export const PRECISIONS = ['fp32', 'fp16', 'q4'] as const;
export type Precision = (typeof PRECISIONS)[number];

export interface FetchPreset {
  description: string;
  onnxRepo: string;
  checkpointRepo: string;
  revision: string;
  silenceLatent: string;
  tokenizer: string;
}

export const FETCH_PRESETS: Readonly<Record<string, FetchPreset>> = {
  'acestep-1.5-turbo': {
    description: 'ACE-Step 1.5 turbo, DiT-only (no language model): 8 steps, shift 3',
    onnxRepo: 'shreyask/ACE-Step-v1.5-ONNX',
    checkpointRepo: 'ACE-Step/Ace-Step1.5',
    revision: 'main',
    silenceLatent: 'acestep-v15-turbo/silence_latent.pt',
    tokenizer: 'Qwen3-Embedding-0.6B/tokenizer.json',
  },
};

/** The Hub repository's name for each role's graph. */
const HUB_NAMES: Readonly<Record<GraphName, string>> = {
  qwen3_embedding_0p6: 'text_encoder',
  qwen3_token_embeddings: 'text_embed_tokens',
  condition_encoder: 'condition_encoder',
  text_projector: 'text_projector',
  lyric_encoder: 'lyric_encoder',
  timbre_encoder: 'timbre_encoder',
  dit_decoder: 'dit_decoder',
  vae_decoder: 'vae_decoder',
  audio_tokenizer: 'audio_tokenizer',
  audio_detokenizer: 'audio_detokenizer',
  vae_encoder: 'vae_encoder',
};
const FOLDER: Readonly<Record<Precision, { folder: string; suffix: string }>> = {
  fp32: { folder: 'onnx', suffix: '' },
  fp16: { folder: 'onnx_fp16', suffix: '_fp16' },
  q4: { folder: 'onnx_q4', suffix: '_q4' },
};

/** The asked precision first, then the next larger one the repository has (the card ships no q4 VAE, e.g.). */
function candidates(name: string, precision: Precision): string[] {
  const order: Precision[] = precision === 'q4' ? ['q4', 'fp16', 'fp32'] : precision === 'fp16' ? ['fp16', 'fp32'] : ['fp32'];
  return order.map((p) => `${FOLDER[p].folder}/${name}${FOLDER[p].suffix}.onnx`);
}

export interface FetchPlan {
  /** Every file to download, with the local path (relative to the model directory) it goes to. */
  files: { remote: RemoteFile; local: string }[];
  roles: Partial<Record<GraphName, { file: string; external_data: string[] }>>;
  silenceLatent: string;
  tokenizer: string;
}

/** Picks each role's graph and sidecars from the repositories' listings. */
export function planFetch(
  preset: FetchPreset,
  precision: Precision,
  onnx: ReadonlyMap<string, RemoteFile>,
  checkpoint: ReadonlyMap<string, RemoteFile>,
): Result<FetchPlan, { code: 'MODEL_LAYOUT_INVALID'; message: string }> {
  const files: FetchPlan['files'] = [];
  const roles: FetchPlan['roles'] = {};
  const find = (role: GraphName) => candidates(HUB_NAMES[role], precision).find((p) => onnx.has(p));
  // The combined condition encoder where the repository has one, else its three parts (packed on the host).
  const split = find('condition_encoder') === undefined;
  const graphs = GRAPH_NAMES.filter((g) => !(split ? COMBINED_ENCODER : SPLIT_ENCODER).includes(g));
  for (const role of graphs) {
    const path = find(role);
    // An optional role (remix's FSQ graphs, the VAE encoder) is taken where the repository has it.
    if (path === undefined && OPTIONAL_GRAPHS.includes(role)) continue;
    if (path === undefined) {
      const wanted = candidates(HUB_NAMES[role], precision);
      return fail({
        code: 'MODEL_LAYOUT_INVALID',
        message: SPLIT_ENCODER.includes(role)
          ? `${preset.onnxRepo}@${preset.revision} has neither a condition_encoder graph nor ${wanted.join(' or ')} (the ${role} role of the split condition encoder)`
          : `${preset.onnxRepo}@${preset.revision} has no ${wanted.join(' or ')} (the ${role} role)`,
      });
    }
    const sidecars = [...onnx.keys()].filter((p) => p !== path && (p.startsWith(`${path}.data`) || p.startsWith(`${path}_data`))).sort();
    roles[role] = { file: path, external_data: sidecars };
    for (const p of [path, ...sidecars]) {
      const remote = onnx.get(p);
      if (remote !== undefined) files.push({ remote, local: p });
    }
  }
  for (const p of [preset.silenceLatent, preset.tokenizer]) {
    const remote = checkpoint.get(p);
    if (remote === undefined)
      return fail({ code: 'MODEL_LAYOUT_INVALID', message: `${preset.checkpointRepo}@${preset.revision} has no ${p}` });
    files.push({ remote, local: p });
  }
  return ok({ files, roles, silenceLatent: preset.silenceLatent, tokenizer: preset.tokenizer });
}

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const Relative = RelativePath;

/** `songmint-hub-files.json`: where the files came from, which plays which role, and each file's sha256. */
export const HubRecord = z.object({
  format: z.literal('songmint-hub-files/1'),
  endpoint: z.string().min(1),
  sources: z.array(z.object({ repo: z.string().min(1), revision: z.string().min(1) })).min(1),
  /** The common graphs' roles, and the condition encoder's: combined or its three parts. */
  roles: z.partialRecord(z.enum(GRAPH_NAMES), z.object({ file: Relative, external_data: z.array(Relative) })).superRefine((roles, ctx) => {
    const layout = encoderLayout(GRAPH_NAMES.filter((g) => roles[g] !== undefined));
    if ('missing' in layout) ctx.addIssue({ code: 'custom', message: `roles: needs ${layout.missing}` });
  }),
  silence_latent: Relative,
  tokenizer: Relative,
  files: z.record(Relative, Sha256),
});
export type HubRecord = z.infer<typeof HubRecord>;
