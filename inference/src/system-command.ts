/**
 * Probing the host for optional binaries (native MP3 encoders, the NVIDIA driver tools).
 */
import { execFileSync } from 'node:child_process';

/** How long a probe may take before the binary counts as absent. */
const PROBE_TIMEOUT_MS = 5000;

/** The standard output of `file args` when it runs and exits 0 within the timeout, else undefined. */
export function commandOutput(file: string, args: readonly string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
}
