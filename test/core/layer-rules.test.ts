/**
 * The layer rules of `npm run lint` (.dependency-cruiser.cjs) run on a fixture repository whose
 * files break them on purpose: every broken rule is reported, nothing else is, and the one
 * temporary cycle exception covers exactly its two files.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import type { IConfiguration } from 'dependency-cruiser';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixtureRoot = fileURLToPath(new URL('./fixtures/layers/', import.meta.url));
const config = createRequire(import.meta.url)(`${repoRoot}.dependency-cruiser.cjs`) as IConfiguration;

/** Runs the project's rules over the fixture (or the repository) and lists violations as `rule: from -> to`. */
async function violations(baseDir: string, exclude?: string): Promise<string[]> {
  const result = await cruise(['.'], {
    ...config.options,
    baseDir,
    exclude: exclude === undefined ? config.options?.exclude : { path: exclude },
    tsConfig: { fileName: `${repoRoot}tsconfig.json` },
    ruleSet: { forbidden: config.forbidden ?? [] },
    validate: true,
  });
  if (typeof result.output === 'string') throw new Error('cruise returned a formatted report, not a result object');
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

describe('layer rules (npm run lint: dependency-cruiser)', () => {
  it('reports every broken rule in the fixture and nothing that keeps them', async () => {
    const found = await violations(fixtureRoot, '^(node_modules)/');
    assert.deepEqual(found, [
      'app-only-sdk: app/src/uses-oracle.ts -> oracle/src/clean.ts',
      'core-not-services: core/src/uses-inference.ts -> inference/src/worker.ts',
      'inference-not-oracle: inference/src/uses-oracle.ts -> oracle/src/clean.ts',
      // A new cycle fails the lint (reported once, at one of its edges)...
      'no-circular: oracle/src/cycle-a.ts -> oracle/src/cycle-b.ts',
      // ...and so does a cycle through the excepted pair that takes in a third module
      // (auth -> rate-limit -> metrics -> auth); the pair's own cycle is not reported.
      'no-circular: oracle/src/http/metrics.ts -> oracle/src/http/auth.ts',
      'oracle-not-inference: oracle/src/uses-inference.ts -> inference/src/worker.ts',
      'sdk-not-services: sdk/src/uses-core.ts -> core/src/shared.ts',
    ]);
  });

  it('the repository itself keeps every rule', async () => {
    assert.deepEqual(await violations(repoRoot), []);
  });
});
