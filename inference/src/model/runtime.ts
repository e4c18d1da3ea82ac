/**
 * The model runtime: one onnxruntime-node session per process, created from a model directory
 * (manifest + ONNX file), fed by input role, producing planar PCM.
 */
import * as ort from 'onnxruntime-node';
import type { Result } from '../../../core/src/result.ts';
import { fail, ok } from '../../../core/src/result.ts';
import type { Device, DevicePreference, ExecutionProviders, GpuProbe } from './device.ts';
import { createWithFallback, gpuPresent, providerPlan, systemGpuProbe } from './device.ts';
import type { InputRole, ModelManifest } from './manifest.ts';
import { readManifest } from './manifest.ts';

export interface ModelRequest {
  conditioning: Float32Array;
  seed: Float32Array;
  rhythm: Float32Array;
  numSamples: number;
  steps: number;
}

export interface PcmAudio {
  sampleRate: number;
  /** One Float32Array per channel, samples in [-1, 1]. */
  channels: Float32Array[];
}

export interface MusicModel {
  readonly manifest: ModelManifest;
  readonly device: Device;
  readonly fallbackReason: string | undefined;
  generate(request: ModelRequest, signal: AbortSignal): Promise<PcmAudio>;
  release(): Promise<void>;
}

export interface LoadModelOptions {
  modelDir: string;
  device: DevicePreference;
  probe?: GpuProbe;
  /** Session factory; tests replace it to exercise the CUDA fallback. */
  createSession?: (modelPath: string, providers: ExecutionProviders) => Promise<ort.InferenceSession>;
}

export type LoadModelResult = Result<MusicModel>;

const defaultCreateSession = (modelPath: string, providers: ExecutionProviders): Promise<ort.InferenceSession> =>
  ort.InferenceSession.create(modelPath, { executionProviders: [...providers], graphOptimizationLevel: 'all' });

function feedFor(role: InputRole, request: ModelRequest): ort.Tensor {
  switch (role) {
    case 'conditioning':
      return new ort.Tensor('float32', request.conditioning, [request.conditioning.length]);
    case 'seed':
      return new ort.Tensor('float32', request.seed, [request.seed.length]);
    case 'rhythm':
      return new ort.Tensor('float32', request.rhythm, [request.rhythm.length]);
    case 'num_samples':
      return new ort.Tensor('int64', BigInt64Array.from([BigInt(request.numSamples)]), [1]);
    case 'steps':
      return new ort.Tensor('int64', BigInt64Array.from([BigInt(request.steps)]), [1]);
  }
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

export async function loadModel(options: LoadModelOptions): Promise<LoadModelResult> {
  const read = await readManifest(options.modelDir);
  if (!read.ok) return read;
  const { manifest, modelPath } = read.value;
  const plan = providerPlan(options.device, gpuPresent(options.probe ?? systemGpuProbe));
  const create = options.createSession ?? defaultCreateSession;
  let choice;
  try {
    choice = await createWithFallback(plan, (providers) => create(modelPath, providers));
  } catch (err) {
    return fail({ code: 'MODEL_LOAD_FAILED', message: err instanceof Error ? err.message : String(err) });
  }
  const session = choice.session;
  const output = manifest.outputs[0];
  if (output === undefined) return fail({ code: 'MODEL_MANIFEST_INVALID', message: 'no output' });

  const model: MusicModel = {
    manifest,
    device: choice.device,
    fallbackReason: choice.fallbackReason,
    async generate(request, signal) {
      if (signal.aborted) throw abortError(signal);
      const feeds: Record<string, ort.Tensor> = {};
      for (const input of manifest.inputs) feeds[input.name] = feedFor(input.role, request);
      // onnxruntime cannot cancel a running graph from JS; the job stops waiting on abort and
      // the result, when it arrives, is dropped.
      const run = session.run(feeds, [output.name]);
      const aborted = new Promise<never>((_, reject) => {
        signal.addEventListener('abort', () => reject(abortError(signal)), { once: true });
      });
      const result = await Promise.race([run, aborted]);
      const tensor = result[output.name];
      if (tensor === undefined || tensor.type !== 'float32') throw new Error(`model output ${output.name} missing or not float32`);
      const data = tensor.data as Float32Array;
      const channels = tensor.dims.length === 2 ? Number(tensor.dims[0]) : 1;
      const samples = data.length / channels;
      if (samples !== request.numSamples) {
        throw new Error(`model produced ${samples} samples per channel, expected ${request.numSamples}`);
      }
      return {
        sampleRate: manifest.sample_rate,
        channels: Array.from({ length: channels }, (_, c) => data.subarray(c * samples, (c + 1) * samples)),
      };
    },
    async release() {
      await session.release();
    },
  };
  return ok(model);
}
