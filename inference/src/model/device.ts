/**
 * Execution device selection: CUDA when a GPU is present (or forced), CPU otherwise, and CPU
 * again when the CUDA execution provider cannot be initialised (for example onnxruntime-node
 * installed without its CUDA provider libraries).
 */
import { existsSync } from 'node:fs';
import { commandOutput } from '../system-command.ts';

export type Device = 'cuda' | 'cpu';
export type DevicePreference = 'auto' | Device;
export type ExecutionProviders = readonly ('cuda' | 'cpu')[];

export interface GpuProbe {
  deviceNodes(): boolean;
  nvidiaSmi(): boolean;
}

export const systemGpuProbe: GpuProbe = {
  deviceNodes: () => existsSync('/dev/nvidia0') || existsSync('/dev/nvidiactl'),
  nvidiaSmi: () => commandOutput('nvidia-smi', ['-L']) !== undefined,
};

export function gpuPresent(probe: GpuProbe): boolean {
  return probe.deviceNodes() || probe.nvidiaSmi();
}

/** Provider lists to try, in order, each with the device it means. */
export function providerPlan(preference: DevicePreference, hasGpu: boolean): { device: Device; providers: ExecutionProviders }[] {
  const cpu = { device: 'cpu' as const, providers: ['cpu'] as const };
  if (preference === 'cpu') return [cpu];
  if (preference === 'cuda' || hasGpu) return [{ device: 'cuda', providers: ['cuda', 'cpu'] }, cpu];
  return [cpu];
}

export interface SessionChoice<S> {
  session: S;
  device: Device;
  /** Why CUDA was not used although planned; undefined when the first plan worked. */
  fallbackReason?: string;
}

/** Creates a session with the first provider list that initialises. */
export async function createWithFallback<S>(
  plan: readonly { device: Device; providers: ExecutionProviders }[],
  create: (providers: ExecutionProviders) => Promise<S>,
): Promise<SessionChoice<S>> {
  const failures: string[] = [];
  for (const step of plan) {
    try {
      const session = await create(step.providers);
      return failures.length === 0
        ? { session, device: step.device }
        : { session, device: step.device, fallbackReason: failures.join('; ') };
    } catch (err) {
      failures.push(`${step.providers.join('+')}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(`no execution provider could load the model (${failures.join('; ')})`);
}
