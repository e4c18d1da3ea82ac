/**
 * C2PA in tests: a development signing identity for the workers a test starts, and an
 * independent reader of what they publish. The reader is c2pa-rs, the Content Authenticity
 * Initiative's reference implementation, compiled to WebAssembly (@contentauth/c2pa-wasm), not
 * the TypeScript library that writes the manifests (@trustnxt/c2pa-ts).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { initSync, WasmReader } from '@contentauth/c2pa-wasm';
import { ensureDevelopmentIdentity } from '../../inference/src/audio/development-identity.ts';
import { makeTempDir } from '../../core/src/testing/temp-dirs.ts';

export interface TestSigningIdentity {
  /** C2PA_SIGN_CERT and C2PA_PRIVATE_KEY for a worker's environment. */
  env: { C2PA_SIGN_CERT: string; C2PA_PRIVATE_KEY: string };
  /** The development CA (PEM), for the reader's trust anchors. */
  caPem: string;
  remove(): Promise<void>;
}

export async function testSigningIdentity(): Promise<TestSigningIdentity> {
  const dir = await makeTempDir('c2pa-identity');
  const files = await ensureDevelopmentIdentity(dir.path);
  return {
    env: { C2PA_SIGN_CERT: files.certFile, C2PA_PRIVATE_KEY: files.keyFile },
    caPem: await readFile(files.caFile, 'utf8'),
    remove: () => dir.remove(),
  };
}

/** One entry of c2pa-rs's validation results. */
export interface StatusEntry {
  code: string;
  url?: string;
  explanation?: string;
}

/** The parts of c2pa-rs's JSON report the tests read. */
export interface C2paReport {
  active_manifest: string;
  manifests: Record<
    string,
    {
      claim_generator_info?: { name: string; version?: string }[];
      title?: string;
      instance_id: string;
      assertions: { label: string; data: unknown }[];
      ingredients?: C2paIngredient[];
      signature_info?: { alg?: string; issuer?: string; common_name?: string; cert_serial_number?: string };
      claim_version?: number;
    }
  >;
  validation_state: 'Invalid' | 'Valid' | 'Trusted';
  validation_status?: StatusEntry[];
  validation_results?: {
    activeManifest?: ValidationEntries;
    ingredientDeltas?: { ingredientAssertionURI: string; validationDeltas: ValidationEntries }[];
  };
}

export interface ValidationEntries {
  success: StatusEntry[];
  informational: StatusEntry[];
  failure: StatusEntry[];
}

/** An ingredient as c2pa-rs reports it. */
export interface C2paIngredient {
  title?: string;
  format?: string;
  instance_id?: string;
  relationship: string;
  /** The label of the ingredient's manifest, when the store carries it. */
  active_manifest?: string;
  label?: string;
  metadata?: Record<string, unknown>;
  validation_results?: { activeManifest: ValidationEntries };
}

/** Every failure c2pa-rs reports, for the active manifest and for its ingredients. */
export function validationFailures(report: C2paReport): StatusEntry[] {
  const results = report.validation_results;
  return [...(results?.activeManifest?.failure ?? []), ...(results?.ingredientDeltas ?? []).flatMap((d) => d.validationDeltas.failure)];
}

let initialised = false;

function initReader(): void {
  if (initialised) return;
  const wasmPath = createRequire(import.meta.url).resolve('@contentauth/c2pa-wasm/c2pa.wasm');
  initSync({ module: readFileSync(wasmPath) });
  initialised = true;
}

/**
 * Reads and validates the manifest store of a file (an MP3 unless `format` says otherwise: a
 * song's WAV or FLAC) with c2pa-rs; `trustAnchorPem` makes a certificate issued by that CA
 * trusted (validation_state `Trusted`).
 */
export async function readC2pa(
  bytes: Uint8Array,
  trustAnchorPem?: string,
  format: 'audio/mpeg' | 'audio/wav' | 'audio/flac' = 'audio/mpeg',
): Promise<C2paReport> {
  initReader();
  const settings =
    trustAnchorPem === undefined ? undefined : JSON.stringify({ trust: { user_anchors: trustAnchorPem }, verify: { verify_trust: true } });
  const reader = await WasmReader.fromBytes(format, bytes, settings);
  try {
    return JSON.parse(reader.json()) as C2paReport;
  } finally {
    reader.free();
  }
}
