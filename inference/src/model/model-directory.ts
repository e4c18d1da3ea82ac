/**
 * Writing a model directory built in memory (the built-in model, the tiny MusicGen and ACE-Step
 * exports): the one place that turns `file name → bytes` into files on disk.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Writes `files` (names relative to `dir`, subfolders allowed) into `dir`, creating folders as
 * needed; returns the paths written, in the order of `files`.
 */
export async function writeModelDirectory(dir: string, files: Readonly<Record<string, Uint8Array>>): Promise<string[]> {
  const written: string[] = [];
  for (const [name, bytes] of Object.entries(files)) {
    const path = join(dir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
    written.push(path);
  }
  return written;
}
