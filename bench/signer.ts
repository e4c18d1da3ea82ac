/**
 * Mint signatures per second and the oracle's CPU per signature, for each signer backend in the
 * same run: `env` (PLATFORM_SIGNER_KEY, libsecp256k1 in the process: the baseline), `pkcs11`
 * (a secp256k1 key in a fresh SoftHSM2 token) and `awskms` (@aws-sdk/client-kms against the
 * loopback KMS protocol double, run in a child process so its signing CPU is not counted as the
 * oracle's). CPU is this process's user + system time (process.cpuUsage) over the signatures;
 * SoftHSM runs in-process (a PKCS#11 module is a library), so its ECDSA counts for pkcs11.
 *
 *   npx tsx bench/signer.ts [signatures per backend, default 2000] [concurrency, default 16]
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { generatePrivateKey } from 'viem/accounts';
import type { Hex } from 'viem';
import { createMintSigner } from '../oracle/src/chain/mint-signer.ts';
import type { MintSigner } from '../oracle/src/chain/mint-signer.ts';
import { openPlatformSigner } from '../oracle/src/chain/platform-signer.ts';
import { KMS_DOUBLE_ENV, startKmsDouble } from '../test/support/kms-double.ts';
import { createSoftHsmToken, softHsmMissing } from '../test/support/softhsm.ts';

if (process.argv[2] === 'kms-double') {
  const kms = await startKmsDouble();
  kms.createKey('ECC_SECG_P256K1', 'bench');
  process.stdout.write(`${JSON.stringify({ host: kms.host })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void kms.close().then(() => process.exit(0)));
} else {
  await main();
}

async function startDoubleProcess(): Promise<{ host: string; stop(): void }> {
  const child = spawn(process.execPath, [...process.execArgv, new URL(import.meta.url).pathname, 'kms-double'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const host = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { host: string }).host));
    child.once('exit', (code) => reject(new Error(`KMS double exited ${code}`)));
  });
  return { host, stop: () => child.stdin.end() };
}

async function open(reference: string): Promise<MintSigner> {
  const opened = await openPlatformSigner({ PLATFORM_SIGNER: reference }, () => Promise.reject(new Error('unused')));
  if (!opened.ok) throw new Error(opened.error.message);
  return opened.value;
}

async function measure(signer: MintSigner, count: number, concurrency: number) {
  const minter = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
  let next = 0;
  const work = async () => {
    while (next < count) {
      const i = next++;
      await signer.sign({ minter, metadataUri: `ipfs://bench/${i}`, audioHash: `0x${i.toString(16).padStart(64, '0')}` as Hex });
    }
  };
  await Promise.all(
    Array.from({ length: 50 }, (_, i) => signer.sign({ minter, metadataUri: `warm${i}`, audioHash: `0x${'1'.repeat(64)}` })),
  );
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: concurrency }, work));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  return {
    backend: signer.backend,
    signatures: count,
    signaturesPerSecond: Math.round(count / seconds),
    cpuMicrosecondsPerSignature: Math.round((used.user + used.system) / count),
  };
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 2000);
  const concurrency = Number(process.argv[3] ?? 16);
  const results = [];
  results.push({ name: 'env (baseline)', ...(await measure(createMintSigner(generatePrivateKey()), count, concurrency)) });
  const missing = softHsmMissing();
  if (missing === undefined) {
    const token = await createSoftHsmToken('bench');
    await token.generateKey('mint', 'EC:secp256k1', '01');
    const signer = await open(token.uri('mint'));
    results.push({ name: 'pkcs11 (SoftHSM2)', ...(await measure(signer, count, concurrency)) });
    await signer.close();
    await token.remove();
  } else {
    console.log(`pkcs11 skipped: ${missing}`);
  }
  Object.assign(process.env, KMS_DOUBLE_ENV);
  const double = await startDoubleProcess();
  const kms = await open(`awskms://${double.host}/alias/bench`);
  results.push({ name: 'awskms (loopback double)', ...(await measure(kms, count, concurrency)) });
  await kms.close();
  double.stop();

  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    cores: availableParallelism(),
    concurrency,
    results,
  };
  console.table(results);
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  await writeFile(new URL('./results/signer.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
  process.exit(0);
}
