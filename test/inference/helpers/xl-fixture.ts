/**
 * The tiny ACE-Step 1.5 XL Turbo fixture (test/fixtures/acestep-export/xl-turbo, written by
 * scripts/fixtures/export_acestep_xl_tiny.py): one folder per Hub repository, files at their Hub
 * paths; the real preset with the fixture's sizes (for the Hub test double); the folder
 * `huggingface-cli download --local-dir` would leave (the three repositories merged).
 */
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { HubPreset } from '../../../inference/src/model/acestep/hub-presets.ts';
import { HUB_PRESETS } from '../../../inference/src/model/acestep/hub-presets.ts';

export const XL_FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'acestep-export', 'xl-turbo');
export const XL_REPOS = ['shreyask/ACE-Step-v1.5-ONNX', 'emb1ter/ACE-Step-v1.5-XL-Turbo-ONNX-WebGPU', 'ACE-Step/Ace-Step1.5'] as const;

/** Every file under `root`, relative to it. */
export function filesUnder(root: string, folder = root): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(root, join(folder, entry.name)) : [relative(root, join(folder, entry.name))],
  );
}

/** The real acestep-1.5-xl-turbo preset (repositories, revisions, paths) with the fixture's files and sizes. */
export function fixturePreset(): HubPreset {
  const preset = HUB_PRESETS['acestep-1.5-xl-turbo'];
  assert.ok(preset !== undefined);
  return {
    ...preset,
    name: 'acestep-1.5-xl-turbo-fixture',
    repositories: preset.repositories.map((r) => ({
      ...r,
      files: Object.fromEntries(filesUnder(join(XL_FIXTURE, r.repo)).map((path) => [path, statSync(join(XL_FIXTURE, r.repo, path)).size])),
    })),
  };
}

/** The three repositories merged into `target`, as huggingface-cli leaves them. */
export async function xlFolder(target: string): Promise<string> {
  for (const repo of XL_REPOS) await cp(join(XL_FIXTURE, repo), target, { recursive: true });
  return target;
}
