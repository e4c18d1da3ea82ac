/**
 * Checks an ACE-Step directory and names the first real mismatch, cheapest first: every file
 * against its sha256 (before anything loads), then each graph as onnxruntime reads it: its own
 * inputs and outputs mapped onto the roles the backend feeds and reads (contract.ts), with their
 * dtypes, ranks and the widths the manifest records; and, where the export ships its
 * `io_contract_core.json`, that file against the graph it describes. The graph is the truth: a
 * graph may leave out an input its export dropped, may name its VAE output `audio` or `waveform`,
 * and may take its masks as float, int64 or bool. The worker runs all of it at start and
 * `npm run model:check` (and `model:import`) run the same.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Result } from '../../../../core/src/result.ts';
import { fail, ok } from '../../../../core/src/result.ts';
import type { ContractDim, ContractTensor, GraphName, TensorType } from './contract.ts';
import { CONTRACT, CORE_GRAPHS } from './contract.ts';
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

/** One of a graph's own tensors, bound to the role the backend knows it by. */
export interface BoundTensor {
  name: string;
  type: TensorType;
}

/** A graph's inputs and outputs by role: the backend feeds exactly `inputs`, reads `outputs`. */
export interface GraphIo {
  inputs: ReadonlyMap<string, BoundTensor>;
  outputs: ReadonlyMap<string, BoundTensor>;
}

type Dims = AcestepManifest['dims'];

function describeDim(dim: ContractDim, dims: Dims): string {
  if ('width' in dim) return `${dim.width}=${dims[dim.width]}`;
  if ('fixed' in dim) return String(dim.fixed);
  return dim.varies;
}

function bindTensor(
  graph: GraphName,
  kind: 'input' | 'output',
  role: ContractTensor,
  found: SessionValue,
  dims: Dims,
): Result<BoundTensor, LayoutError> {
  const where = `graph ${graph} ${kind} ${found.name}`;
  const type = role.types.find((t) => t === found.type);
  if (type === undefined)
    return fail({
      code: 'MODEL_LAYOUT_INVALID',
      message: `${where}: dtype expected ${role.types.join(' or ')}, found ${found.type ?? 'a non-tensor'}`,
    });
  // A graph may leave its shapes undeclared; where it declares them, they must agree.
  const shape = found.shape;
  if (shape !== undefined && shape.length > 0) {
    if (shape.length !== role.dims.length) {
      return fail({
        code: 'MODEL_LAYOUT_INVALID',
        message: `${where}: rank expected ${role.dims.length} [${role.dims.map((d) => describeDim(d, dims)).join(', ')}], found ${shape.length} [${shape.join(', ')}]`,
      });
    }
    for (const [axis, dim] of role.dims.entries()) {
      const want = 'width' in dim ? dims[dim.width] : 'fixed' in dim ? dim.fixed : undefined;
      const have = shape[axis];
      if (want !== undefined && typeof have === 'number' && have > 0 && have !== want)
        return fail({
          code: 'MODEL_LAYOUT_INVALID',
          message: `${where}: dimension ${axis} expected ${describeDim(dim, dims)}, found ${have}`,
        });
    }
  }
  return ok({ name: found.name, type });
}

const listNames = (values: readonly SessionValue[]): string => values.map((v) => v.name).join(', ') || 'none';

/** Whether a declared tensor could play a role: an allowed dtype, and its rank where it declares one. */
function couldPlay(role: ContractTensor, value: SessionValue): boolean {
  const rankOk = value.shape === undefined || value.shape.length === 0 || value.shape.length === role.dims.length;
  return role.types.some((t) => t === value.type) && rankOk;
}

/**
 * Which declared tensor plays each role. By name first; in a graph whose names are nobody's
 * contract (`bindByShape`), a role no name matches takes the one unbound tensor of its dtype and
 * rank, and roles that are alike (the same candidates) take theirs in declared order. A role two
 * tensors could play, not settled by that, is refused as ambiguous, naming the graph.
 */
function matchRoles(
  graph: GraphName,
  kind: 'input' | 'output',
  roles: readonly ContractTensor[],
  values: readonly SessionValue[],
  byShape: boolean,
): Result<Map<ContractTensor, SessionValue>, LayoutError> {
  const matched = new Map<ContractTensor, SessionValue>();
  const taken = new Set<string>();
  for (const role of roles) {
    const found = values.find((v) => role.names.includes(v.name));
    if (found !== undefined) {
      matched.set(role, found);
      taken.add(found.name);
    }
  }
  if (!byShape) return ok(matched);
  const open = () => roles.filter((r) => !matched.has(r));
  const candidates = (role: ContractTensor) => values.filter((v) => !taken.has(v.name) && couldPlay(role, v));
  for (let progress = true; progress;) {
    progress = false;
    for (const role of open()) {
      const found = candidates(role);
      const alike = open().filter((r) => {
        const theirs = candidates(r);
        return theirs.length === found.length && theirs.every((v, i) => v === found[i]);
      });
      // As many alike roles as tensors they could be: pair them in order (one role, one tensor: itself).
      if (found.length === 0 || alike.length !== found.length) continue;
      alike.forEach((r, i) => {
        const value = found[i];
        if (value === undefined) return;
        matched.set(r, value);
        taken.add(value.name);
      });
      progress = true;
      break;
    }
  }
  for (const role of open()) {
    const found = candidates(role);
    if (found.length > 1)
      return fail({
        code: 'MODEL_LAYOUT_INVALID',
        message: `graph ${graph}: ${kind} ${role.role} cannot be bound unambiguously: ${found.map((v) => `${v.name} (${v.type ?? '?'}, rank ${v.shape?.length ?? '?'})`).join(' and ')} could each play it`,
      });
  }
  return ok(matched);
}

/**
 * A loaded graph's own inputs and outputs onto the roles: every input the backend must feed is
 * there, every input the graph declares is one the backend can feed, every output it reads is
 * there under one of its names, each with an allowed dtype, its rank and the manifest's widths.
 */
export function bindGraph(
  graph: GraphName,
  dims: Dims,
  inputs: readonly SessionValue[],
  outputs: readonly SessionValue[],
): Result<GraphIo, LayoutError> {
  const contract = CONTRACT[graph];
  const byShape = contract.bindByShape === true;
  const inputMatch = matchRoles(graph, 'input', contract.inputs, inputs, byShape);
  if (!inputMatch.ok) return inputMatch;
  const boundInputs = new Map<string, BoundTensor>();
  for (const role of contract.inputs) {
    const found = inputMatch.value.get(role);
    if (found === undefined) {
      if (role.optional === true) continue;
      return fail({
        code: 'MODEL_LAYOUT_INVALID',
        message: `graph ${graph}: input ${role.names.join(' or ')} expected, found ${listNames(inputs)}`,
      });
    }
    const bound = bindTensor(graph, 'input', role, found, dims);
    if (!bound.ok) return bound;
    boundInputs.set(role.role, bound.value);
  }
  const fed = new Set([...boundInputs.values()].map((b) => b.name));
  const unknown = inputs.find((v) => !fed.has(v.name) && !contract.inputs.some((role) => role.names.includes(v.name)));
  if (unknown !== undefined) {
    return fail({
      code: 'MODEL_LAYOUT_INVALID',
      message: `graph ${graph}: input ${unknown.name} plays no role the backend can feed (it feeds ${contract.inputs.map((r) => r.names.join('/')).join(', ')})`,
    });
  }
  const outputMatch = matchRoles(graph, 'output', contract.outputs, outputs, byShape);
  if (!outputMatch.ok) return outputMatch;
  const boundOutputs = new Map<string, BoundTensor>();
  for (const role of contract.outputs) {
    // A graph with one output and a role with one output: that output plays it, whatever its name
    // (exporters name a single output freely; its dtype, rank and widths are still checked).
    const sole = contract.outputs.length === 1 && outputs.length === 1 ? outputs[0] : undefined;
    const found = outputMatch.value.get(role) ?? sole;
    if (found === undefined) {
      if (role.optional === true) continue;
      return fail({
        code: 'MODEL_LAYOUT_INVALID',
        message: `graph ${graph}: output ${role.names.join(' or ')} expected, found ${listNames(outputs)}`,
      });
    }
    const bound = bindTensor(graph, 'output', role, found, dims);
    if (!bound.ok) return bound;
    boundOutputs.set(role.role, bound.value);
  }
  return ok({ inputs: boundInputs, outputs: boundOutputs });
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

/** The export's own `io_contract_core.json` (when the directory has one) against the graphs it describes. */
export async function checkIoContract(
  dir: string,
  graphs: ReadonlyMap<GraphName, { inputs: readonly SessionValue[]; outputs: readonly SessionValue[] }>,
): Promise<Check> {
  const path = join(dir, IO_CONTRACT_CORE_FILE);
  if (!existsSync(path)) return PASSED;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    return layout(`${IO_CONTRACT_CORE_FILE} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  for (const graph of CORE_GRAPHS) {
    const session = graphs.get(graph);
    if (session === undefined) continue;
    for (const kind of ['inputs', 'outputs'] as const) {
      const listed = contractNames(json, kind, graph);
      if (listed === undefined) continue;
      const declared = session[kind].map((v) => v.name);
      const missing = listed.find((name) => !declared.includes(name));
      if (missing !== undefined)
        return layout(
          `graph ${graph}: ${IO_CONTRACT_CORE_FILE} lists ${kind.slice(0, -1)} ${missing}, the ONNX file declares ${declared.join(', ')}`,
        );
      const extra = declared.find((name) => !listed.includes(name));
      if (extra !== undefined)
        return layout(
          `graph ${graph}: the ONNX file declares ${kind.slice(0, -1)} ${extra}, ${IO_CONTRACT_CORE_FILE} lists ${listed.join(', ')}`,
        );
    }
  }
  return PASSED;
}

/**
 * The FSQ codes' width is no width of the manifest (the checkpoint's hidden size): the tokenizer's
 * `quantized` output and the detokenizer's input must agree where both declare it.
 */
export function checkCodeWidth(
  graphs: ReadonlyMap<GraphName, { inputs: readonly SessionValue[]; outputs: readonly SessionValue[] }>,
): Check {
  const produced = graphs.get('audio_tokenizer')?.outputs.find((v) => v.name === 'quantized')?.shape?.[2];
  const taken = graphs.get('audio_detokenizer')?.inputs.find((v) => v.name === 'quantized')?.shape?.[2];
  if (typeof produced === 'number' && typeof taken === 'number' && produced > 0 && taken > 0 && produced !== taken)
    return layout(`graph audio_detokenizer: input quantized has width ${taken}, audio_tokenizer's quantized output has ${produced}`);
  return PASSED;
}

/** Everything that needs no session: every file the manifest names against its sha256 and size. */
export function validateFiles(dir: string, manifest: AcestepManifest): Promise<Check> {
  return verifyFiles(dir, manifest);
}
