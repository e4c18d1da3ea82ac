/**
 * CPU time for the benches, the figure other load on a shared machine does not inflate: this
 * process's (all its threads) and its finished children's (native encoders, fpcalc), in ms, from
 * /proc/self/stat (utime, stime, cutime, cstime).
 */
import { readFileSync } from 'node:fs';

const UTIME = 11;
const CUTIME = 13;

function statTicks(fields: readonly number[]): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const values = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.reduce((sum, i) => sum + Number(values[i] ?? 0), 0);
  } catch {
    return undefined;
  }
}

/** This process and its finished children; without /proc, this process only. */
export function processCpuMs(): number {
  const ticks = statTicks([UTIME, UTIME + 1, CUTIME, CUTIME + 1]);
  if (ticks !== undefined) return ticks * 10;
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** The finished children alone (a child counts once it has been waited for); 0 without /proc. */
export function childrenCpuMs(): number {
  return (statTicks([CUTIME, CUTIME + 1]) ?? 0) * 10;
}
