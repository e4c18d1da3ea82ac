import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/**
 * With a directory, `profile('start')` starts the V8 CPU profiler in this process and
 * `profile(name)` stops it and writes `<dir>/<name>.cpuprofile`; without one, both do nothing.
 */
export async function startProfiler(directory: string | undefined): Promise<(command: string) => Promise<void>> {
  if (directory === undefined) return async () => {};
  await mkdir(directory, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  return async (command) => {
    if (command === 'start') {
      await session.post('Profiler.start');
      return;
    }
    const { profile } = await session.post('Profiler.stop');
    await writeFile(join(directory, `${command.replace(/[^a-z0-9-]+/gi, '-')}.cpuprofile`), JSON.stringify(profile));
  };
}
