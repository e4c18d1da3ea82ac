/**
 * What a test PostgreSQL costs to start (tsx bench/test-postgres-start.ts [--rounds N]): the way
 * startTestPostgres did it before (initdb, start, migrate) against the way it does now (copy of
 * the migrated template, start, migrate), alternated round by round in one run so that the
 * shared machine's load falls on both alike. Each cluster is stopped and removed before the
 * next. The template is built before the first round (its one-off cost is reported apart).
 * Writes bench/results/test-postgres-start.json and .md.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { migrate } from '../core/src/db/migrate.ts';
import { startEmbeddedPostgres } from '../core/src/embedded-postgres.ts';
import { freePort } from '../core/src/testing/free-port.ts';
import { startTestPostgres } from '../core/src/testing/postgres.ts';
import { makeTempDir } from '../core/src/testing/temp-dirs.ts';

const RESULTS = join(dirname(fileURLToPath(import.meta.url)), 'results');

/** The path startTestPostgres took before the template: initdb, start, migrate, stop, remove. */
async function fromInitdb(): Promise<number> {
  const started = performance.now();
  const dir = await makeTempDir('pg-bench');
  const server = await startEmbeddedPostgres({ dir: dir.path, port: await freePort(), ephemeral: true });
  await migrate(server.url);
  const ms = performance.now() - started;
  await server.stop();
  await dir.remove();
  return ms;
}

async function fromTemplate(): Promise<number> {
  const started = performance.now();
  const pg = await startTestPostgres();
  const ms = performance.now() - started;
  await pg.stop();
  return ms;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a positive integer');

const loadBefore = loadavg()[0] ?? 0;
const firstUse = await fromTemplate();
const initdb: number[] = [];
const template: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  initdb.push(await fromInitdb());
  template.push(await fromTemplate());
}
const loadAfter = loadavg()[0] ?? 0;
const round1 = (n: number) => Math.round(n);
const result = {
  date: new Date().toISOString(),
  cores: cpus().length,
  load1: { before: loadBefore, after: loadAfter },
  rounds,
  firstUseWithTemplateBuildMs: round1(firstUse),
  initdbMs: initdb.map(round1),
  templateMs: template.map(round1),
  medianInitdbMs: round1(median(initdb)),
  medianTemplateMs: round1(median(template)),
};
await writeFile(join(RESULTS, 'test-postgres-start.json'), `${JSON.stringify(result, null, 2)}\n`);
await writeFile(
  join(RESULTS, 'test-postgres-start.md'),
  [
    '# Test PostgreSQL start-up: initdb vs migrated template',
    '',
    'Written by `tsx bench/test-postgres-start.ts` (see its header): each round starts one migrated cluster the old',
    'way (initdb, start, migrate) and one the new way (copy of the migrated template, start, migrate), one after the',
    'other on the same shared machine.',
    '',
    `Run ${result.date}, ${result.cores} cores, load average (1 min) ${loadBefore.toFixed(2)} before and ${loadAfter.toFixed(2)} after.`,
    '',
    '| way | median ms | each round, ms |',
    '|---|---|---|',
    `| initdb, start, migrate (before) | ${result.medianInitdbMs} | ${result.initdbMs.join(', ')} |`,
    `| template copy, start, migrate (now) | ${result.medianTemplateMs} | ${result.templateMs.join(', ')} |`,
    '',
    `The first start of the run: ${result.firstUseWithTemplateBuildMs} ms (it also builds the template where none exists yet for these migrations).`,
    '',
  ].join('\n'),
);
console.log(
  `median: initdb ${result.medianInitdbMs} ms, template ${result.medianTemplateMs} ms over ${rounds} rounds (load ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)})`,
);
