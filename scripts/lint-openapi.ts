/**
 * `npm run lint` step: the OpenAPI document the oracle serves (built in-process, as
 * /openapi.json serves it) linted by `redocly lint` with the recommended rules of ./redocly.yaml.
 * Fails on any error. Offline: telemetry and the update check are off (REDOCLY_TELEMETRY,
 * REDOCLY_SUPPRESS_UPDATE_NOTICE, and `telemetry: off` in the config).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servedOpenApiDocument } from '../oracle/src/http/served-openapi.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function main(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'songmint-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(servedOpenApiDocument(), null, 2));
    const run = spawnSync(join(ROOT, 'node_modules/.bin/redocly'), ['lint', '--config', join(ROOT, 'redocly.yaml'), file], {
      stdio: 'inherit',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
    });
    if (run.error !== undefined) throw run.error;
    return run.status ?? 1;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  (status) => process.exit(status),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
