/** The benchmark's report: its JSON shape and its markdown table (bench/results/api.md). */
import type { Figures, ceilings } from './figures.ts';

export interface Report {
  machine: { cores: number; cpu: string; node: string; loadAverage: number };
  settings: {
    connections: number;
    databasePool: number;
    pollSeconds: number;
    signatures: number;
    downloadSignatures: number;
    audioBytes: number;
  };
  results: Record<'bare' | 'poll' | 'sign' | 'signDownload', Figures>;
  ceilings: Record<'sign' | 'signDownload', ReturnType<typeof ceilings>>;
  ratios: { pollVsBare: number; pollVsBareByRound: number[]; signVsBare: number };
}

export function markdown({ machine, settings, results, ceilings: limits, ratios }: Report): string {
  const vsBare = (f: Figures) => (f.requestsPerSecond / results.bare.requestsPerSecond).toFixed(3);
  const row = (f: Figures) =>
    `| ${f.name} | ${f.requestsPerSecond.toLocaleString('en-US')} | ${f.p50Ms} | ${f.p99Ms} | ${f.serverCpuMsPerRequest} | ${f.postgresCpuMsPerRequest} | ${f.s3CpuMsPerRequest} | ${f.loadGeneratorCpuMsPerRequest} | ${f.total} | ${f.non2xx} | ${vsBare(f)} |`;
  const ceilingRow = (name: string, c: ReturnType<typeof ceilings>) =>
    `| ${name} | ${c.cpuMsPerRequest} | ${c.allProcessesRequestsPerSecond.toLocaleString('en-US')} | ${c.dependenciesOnlyRequestsPerSecond.toLocaleString('en-US')} | ${c.oracleOnlyRequestsPerSecond.toLocaleString('en-US')} |`;
  return [
    '# API throughput: oracle vs a bare Express route',
    '',
    `${machine.cores} cores (${machine.cpu}), Node ${machine.node}, 1-minute load average ${machine.loadAverage} when the run ended; autocannon, ${settings.connections} connections, no pipelining; the oracle keeps ${settings.databasePool} PostgreSQL connections; the stack (PostgreSQL, s3rver, oracle) and autocannon share the machine.`,
    '',
    `Baseline: a bare Express route returning the same JSON as the job-status route, measured in the same run. Signature issuance: each request for a different completed job with a ${settings.audioBytes}-byte audio object uploaded with its SHA-256 checksum, then ECDSA and the exactly-once claim. The hash check reads the store's checksum with a HEAD (${settings.signatures} requests; AWS S3's default), or downloads and hashes the object ("download", ${settings.downloadSignatures} requests; a store without checksums).`,
    '',
    '| route | req/s | p50 ms | p99 ms | oracle CPU ms/req | PostgreSQL CPU ms/req | s3rver CPU ms/req | autocannon CPU ms/req | requests | non-2xx | vs bare |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    row(results.bare),
    row(results.poll),
    row(results.sign),
    row(results.signDownload),
    '',
    `Polling / bare: ${ratios.pollVsBare.toFixed(3)}, the median of ${ratios.pollVsBareByRound.length} alternating rounds (${ratios.pollVsBareByRound.map((r) => r.toFixed(3)).join(', ')}); the two rows above add the rounds up (p50: median of the rounds, p99: the highest). Targets: polling >= 40% of the bare route; signature issuance >= 1,000 req/s on 2 cores.`,
    '',
    'What the measured CPU per signature allows (derived upper bounds, not measured throughput):',
    '',
    `| path | CPU ms per signature, all processes | req/s ceiling on these ${machine.cores} cores | the same with an oracle costing nothing | req/s the oracle's own CPU allows on ${machine.cores} cores of its own |`,
    '|---|---:|---:|---:|---:|',
    ceilingRow('store checksum (HEAD)', limits.sign),
    ceilingRow('download + sha256', limits.signDownload),
    '',
  ].join('\n');
}
