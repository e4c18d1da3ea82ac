/**
 * Checks an ACE-Step directory against the layout contract, cheapest first, and names the first
 * mismatch (graph, tensor, expected vs found): the manifest against the contract, the manifest
 * against a public export's `io_contract_core.json` when the directory holds one, every file
 * against its sha256, and, once the sessions exist, what onnxruntime reads from each graph against
 * the manifest. The worker runs all of it at start and `npm run model:check` runs the same.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import type { ContractDim, ContractTensor, GraphName } from './contract.ts';
import { CONTRACT, CORE_GRAPHS, GRAPH_NAMES } from './contract.ts';
import type { AcestepManifest, FileRef, ManifestTensor } from './manifest.ts';
import { IO_CONTRACT_CORE_FILE } from './manifest.ts';

export type LayoutErrorCode = 'MODEL_LAYOUT_INVALID' | 'MODEL_FILE_MISSING' | 'MODEL_CHECKSUM_MISMATCH';
export interface LayoutError {
  code: LayoutErrorCode;
  message: string;
}
type Check = Result<null, LayoutError>;

const PASSED: Check = ok(null);
const layout = (message: string): Check => fail({ code: 'MODEL_LAYOUT_INVALID', message });

function describeDim(dim: ContractDim, manifest: AcestepManifest): string {
  if ('width' in dim) return `${dim.width}=${manifest.dims[dim.width]}`;
  if ('fixed' in dim) return String(dim.fixed);
  return dim.varies;
}

function checkTensor(where: string, expected: ContractTensor, found: ManifestTensor, manifest: AcestepManifest): Check {
  if (!expected.types.includes(found.dtype)) return layout(`${where}: dtype expected ${expected.types.join(' or ')}, found ${found.dtype}`);
  if (found.shape.length !== expected.dims.length) {
    return layout(
      `${where}: rank expected ${expected.dims.length} [${expected.dims.map((d) => describeDim(d, manifest)).join(', ')}], found ${found.shape.length} [${found.shape.join(', ')}]`,
    );
  }
  for (const [axis, dim] of expected.dims.entries()) {
    const value = found.shape[axis];
    const want = 'width' in dim ? manifest.dims[dim.width] : 'fixed' in dim ? dim.fixed : undefined;
    if (want !== undefined && value !== want)
      return layout(`${where}: dimension ${axis} expected ${describeDim(dim, manifest)}, found ${String(value)}`);
  }
  return PASSED;
}

function checkTensorList(
  graph: GraphName,
  kind: 'input' | 'output',
  expected: readonly ContractTensor[],
  found: readonly ManifestTensor[],
  manifest: AcestepManifest,
): Check {
  for (const tensor of expected) {
    const declared = found.find((t) => t.name === tensor.name);
    if (declared === undefined)
      return layout(`graph ${graph}: ${kind} ${tensor.name} expected, found ${found.map((t) => t.name).join(', ') || 'none'}`);
    const checked = checkTensor(`graph ${graph} ${kind} ${tensor.name}`, tensor, declared, manifest);
    if (!checked.ok) return checked;
  }
  const extra = found.find((t) => !expected.some((e) => e.name === t.name));
  if (extra !== undefined)
    return layout(`graph ${graph}: ${kind} ${extra.name} is not in the contract (expected ${expected.map((t) => t.name).join(', ')})`);
  return PASSED;
}

/** The manifest's graphs against the contract: names, dtypes, ranks and fixed widths. */
export function checkManifestAgainstContract(manifest: AcestepManifest): Check {
  for (const graph of GRAPH_NAMES) {
    const declared = manifest.graphs[graph];
    const inputs = checkTensorList(graph, 'input', CONTRACT[graph].inputs, declared.inputs, manifest);
    if (!inputs.ok) return inputs;
    const outputs = checkTensorList(graph, 'output', CONTRACT[graph].outputs, declared.outputs, manifest);
    if (!outputs.ok) return outputs;
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

/** The manifest against the export's own `io_contract_core.json`, when the directory has one. */
export async function checkIoContract(dir: string, manifest: AcestepManifest): Promise<Check> {
  const path = join(dir, IO_CONTRACT_CORE_FILE);
  if (!existsSync(path)) return PASSED;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    return layout(`${IO_CONTRACT_CORE_FILE} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const graph of CORE_GRAPHS) {
    for (const kind of ['inputs', 'outputs'] as const) {
      const names = contractNames(json, kind, graph);
      if (names === undefined) return layout(`${IO_CONTRACT_CORE_FILE}: no ${kind}.${graph}`);
      const ours = manifest.graphs[graph][kind].map((t) => t.name);
      const missing = ours.find((name) => !names.includes(name));
      if (missing !== undefined)
        return layout(`graph ${graph}: ${kind.slice(0, -1)} ${missing} expected, ${IO_CONTRACT_CORE_FILE} has ${names.join(', ')}`);
      const extra = names.find((name) => !ours.includes(name));
      if (extra !== undefined)
        return layout(`graph ${graph}: ${IO_CONTRACT_CORE_FILE} has ${kind.slice(0, -1)} ${extra}, the manifest does not`);
    }
  }
  return PASSED;
}

/** Every file the manifest names, in manifest order. */
export function manifestFiles(manifest: AcestepManifest): { what: string; ref: FileRef }[] {
  const files: { what: string; ref: FileRef }[] = [];
  for (const graph of GRAPH_NAMES) {
    const g = manifest.graphs[graph];
    files.push({ what: `graph ${graph}`, ref: g });
    for (const sidecar of g.external_data) files.push({ what: `graph ${graph} external data`, ref: sidecar });
  }
  files.push({ what: 'tokenizer', ref: manifest.tokenizer }, { what: 'silence latent', ref: manifest.silence_latent });
  if (manifest.schedule.null_condition !== undefined) files.push({ what: 'null condition', ref: manifest.schedule.null_condition });
  return files;
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Each file exists, has the sha256 the manifest records, and raw tensors have their byte size. */
export async function verifyFiles(dir: string, manifest: AcestepManifest): Promise<Check> {
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

/** What onnxruntime reads from a graph: name, element type and shape of each input or output. */
export interface SessionValue {
  name: string;
  type: string | undefined;
  shape: readonly (number | string)[] | undefined;
}

function checkSessionList(
  graph: GraphName,
  kind: 'input' | 'output',
  declared: readonly ManifestTensor[],
  found: readonly SessionValue[],
): Check {
  for (const tensor of declared) {
    const actual = found.find((v) => v.name === tensor.name);
    if (actual === undefined)
      return layout(
        `graph ${graph} (${kind}s of the ONNX file): ${kind} ${tensor.name} expected, found ${found.map((v) => v.name).join(', ') || 'none'}`,
      );
    if (actual.type !== undefined && actual.type !== tensor.dtype)
      return layout(`graph ${graph} ${kind} ${tensor.name} in the ONNX file: dtype expected ${tensor.dtype}, found ${actual.type}`);
    // A graph may leave its shapes undeclared; where it declares them, they must agree.
    if (actual.shape === undefined || actual.shape.length === 0) continue;
    if (actual.shape.length !== tensor.shape.length) {
      return layout(
        `graph ${graph} ${kind} ${tensor.name} in the ONNX file: rank expected ${tensor.shape.length} [${tensor.shape.join(', ')}], found ${actual.shape.length} [${actual.shape.join(', ')}]`,
      );
    }
    for (const [axis, want] of tensor.shape.entries()) {
      const have = actual.shape[axis];
      if (typeof want === 'number' && typeof have === 'number' && have > 0 && have !== want) {
        return layout(`graph ${graph} ${kind} ${tensor.name} in the ONNX file: dimension ${axis} expected ${want}, found ${have}`);
      }
    }
  }
  const extraInput = kind === 'input' ? found.find((v) => !declared.some((t) => t.name === v.name)) : undefined;
  if (extraInput !== undefined)
    return layout(`graph ${graph}: the ONNX file has input ${extraInput.name}, which the manifest does not declare`);
  return PASSED;
}

/** A loaded graph against its manifest entry. */
export function checkSessionSignature(
  graph: GraphName,
  manifest: AcestepManifest,
  inputs: readonly SessionValue[],
  outputs: readonly SessionValue[],
): Check {
  const declared = manifest.graphs[graph];
  const checkedInputs = checkSessionList(graph, 'input', declared.inputs, inputs);
  return checkedInputs.ok ? checkSessionList(graph, 'output', declared.outputs, outputs) : checkedInputs;
}

/** Everything that needs no session: manifest vs contract, vs io_contract_core.json, files vs sha256. */
export async function validateFiles(dir: string, manifest: AcestepManifest): Promise<Check> {
  const contract = checkManifestAgainstContract(manifest);
  if (!contract.ok) return contract;
  const io = await checkIoContract(dir, manifest);
  if (!io.ok) return io;
  return verifyFiles(dir, manifest);
}
