/** CPU time of processes from Linux /proc: the figures beside throughput that depend less on the machine's other load. */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const CLOCK_TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Linux /proc: [pid, ppid, utime + stime + cutime + cstime in ticks] of every process. */
function processTable(): Array<[number, number, number]> {
  const table: Array<[number, number, number]> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may contain spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
      table.push([Number(entry), Number(fields[1]), ticks]);
    } catch {
      // The process exited while the table was read.
    }
  }
  return table;
}

/** CPU milliseconds used by `root` and its live descendants, plus its reaped children. */
export function treeCpuMs(root: number): number {
  const table = processTable();
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of table) {
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  const ticks = table.filter(([pid]) => inTree.has(pid)).reduce((sum, [, , t]) => sum + t, 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The PostgreSQL server listening on `port` (started as `postgres ... -p <port>`). */
export function postmasterPid(port: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const flag = args.indexOf('-p');
      if (args[0]?.endsWith('postgres') === true && flag >= 0 && args[flag + 1] === port) return Number(entry);
    } catch {
      // Exited meanwhile.
    }
  }
  return undefined;
}
