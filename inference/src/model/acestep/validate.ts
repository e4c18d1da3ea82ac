/**
 * Checks an ACE-Step directory and names the first real mismatch, cheapest first: every file the
 * manifest names against its sha256 (before anything loads), raw tensors against their byte sizes;
 * then, once each graph is bound to its layout's table (bind.ts), the public exporter's own
 * `io_contract_core.json` (where it ships one) against the graphs it describes, and the FSQ code
 * width the tokenizer gives against the one the detokenizer takes. The worker runs all of it at
 * start; `npm run model:check` and `model:import` run the same.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import type { SessionValue } from './bind.ts';
import type { GraphRole } from './layouts.ts';
import { IO_CONTRACT_GRAPHS, ioContractKey } from './layouts.ts';
import type { AcestepManifest, FileRef } from './manifest.ts';
import { IO_CONTRACT_CORE_FILE, manifestGraphs } from './manifest.ts';

export type LayoutErrorCode = 'MODEL_LAYOUT_INVALID' | 'MODEL_FILE_MISSING' | 'MODEL_CHECKSUM_MISMATCH';
export interface LayoutError {
  code: LayoutErrorCode;
  message: string;
}
type Check = Result<null, LayoutError>;

const PASSED: Check = ok(null);
const layout = (message: string): Check => fail({ code: 'MODEL_LAYOUT_INVALID', message });

/** Every file the manifest names, in manifest order. */
export function manifestFiles(manifest: AcestepManifest): { what: string; ref: FileRef }[] {
  const files: { what: string; ref: FileRef }[] = [];
  for (const { graph, entry: g } of manifestGraphs(manifest)) {
    files.push({ what: `graph ${graph}`, ref: g });
    for (const sidecar of g.external_data) files.push({ what: `graph ${graph} external data`, ref: sidecar });
  }
  files.push({ what: 'tokenizer', ref: manifest.tokenizer });
  if (manifest.tokenizer.config !== undefined) files.push({ what: 'tokenizer config', ref: manifest.tokenizer.config });
  files.push({ what: 'silence latent', ref: manifest.silence_latent });
  if (manifest.schedule.null_condition !== undefined) files.push({ what: 'null condition', ref: manifest.schedule.null_condition });
  return files;
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Each file exists, has the sha256 the manifest records, and raw tensors have their byte size. */
export async function validateFiles(dir: string, manifest: AcestepManifest): Promise<Check> {
  for (const { what, ref } of manifestFiles(manifest)) {
    const path = join(dir, ref.file);
    if (!existsSync(path)) return fail({ code: 'MODEL_FILE_MISSING', message: `${what}: ${ref.file} is missing from ${dir}` });
    const found = await sha256File(path);
    if (found !== ref.sha256)
      return fail({ code: 'MODEL_CHECKSUM_MISMATCH', message: `${what}: ${ref.file} sha256 expected ${ref.sha256}, found ${found}` });
  }
  const raw: [string, FileRef, number][] = [
    ['silence latent', manifest.silence_latent, manifest.silence_latent.shape[0] * manifest.silence_latent.shape[1] * 4],
  ];
  const nullCondition = manifest.schedule.null_condition;
  if (nullCondition !== undefined) raw.push(['null condition', nullCondition, nullCondition.shape[0] * nullCondition.shape[1] * 4]);
  for (const [what, ref, bytes] of raw) {
    const size = (await stat(join(dir, ref.file))).size;
    if (size !== bytes) return layout(`${what}: ${ref.file} holds ${size} bytes, its shape needs ${bytes}`);
  }
  return PASSED;
}

/** A public export's names: `{inputs: {graph: [name | {name}]}, outputs: {...}}`. */
function contractNames(json: unknown, kind: 'inputs' | 'outputs', graph: string): string[] | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const section = (json as Record<string, unknown>)[kind];
  if (typeof section !== 'object' || section === null) return undefined;
  const list = (section as Record<string, unknown>)[graph];
  if (!Array.isArray(list)) return undefined;
  return list.map((entry: unknown) =>
    typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null && 'name' in entry ? String(entry.name) : String(entry),
  );
}

type Declared = ReadonlyMap<GraphRole, { inputs: readonly SessionValue[]; outputs: readonly SessionValue[] }>;

/** The export's own `io_contract_core.json` (when the directory has one) against the graphs it describes. */
export async function checkIoContract(dir: string, graphs: Declared): Promise<Check> {
  const path = join(dir, IO_CONTRACT_CORE_FILE);
  if (!existsSync(path)) return PASSED;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    return layout(`${IO_CONTRACT_CORE_FILE} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const role of IO_CONTRACT_GRAPHS) {
    const graph = ioContractKey(role);
    const session = graphs.get(role);
    if (session === undefined) continue;
    for (const kind of ['inputs', 'outputs'] as const) {
      const listed = contractNames(json, kind, graph);
      if (listed === undefined) continue;
      const declared = session[kind].map((v) => v.name);
      const missing = listed.find((name) => !declared.includes(name));
      if (missing !== undefined)
        return layout(
          `graph ${role}: ${IO_CONTRACT_CORE_FILE} lists ${kind.slice(0, -1)} ${missing}, the ONNX file declares ${declared.join(', ')}`,
        );
      const extra = declared.find((name) => !listed.includes(name));
      if (extra !== undefined)
        return layout(
          `graph ${role}: the ONNX file declares ${kind.slice(0, -1)} ${extra}, ${IO_CONTRACT_CORE_FILE} lists ${listed.join(', ')}`,
        );
    }
  }
  return PASSED;
}

/**
 * The FSQ codes' width is no width of the manifest (the checkpoint's hidden size): the 2B
 * tokenizer's `quantized` output and the detokenizer's input must agree where both declare it.
 */
export function checkCodeWidth(graphs: Declared): Check {
  const produced = graphs.get('audio_tokenizer')?.outputs.find((v) => v.name === 'quantized')?.shape?.[2];
  const taken = graphs.get('audio_detokenizer')?.inputs.find((v) => v.name === 'quantized')?.shape?.[2];
  if (typeof produced === 'number' && typeof taken === 'number' && produced > 0 && taken > 0 && produced !== taken)
    return layout(`graph audio_detokenizer: input quantized has width ${taken}, audio_tokenizer's quantized output has ${produced}`);
  return PASSED;
}
