import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { connect, reconnect } from '@wagmi/core';
import { formatEther, formatUnits, parseEther } from 'viem';
import {
  useBuy,
  useCoin,
  useGenerate,
  useJob,
  useJobs,
  useLaunchSong,
  useMintSignature,
  useMintSong,
  usePortfolio,
  useQuote,
  useSession,
  useSignIn,
  useUploadMetadata,
} from '@songmint/react';
import type { JobStatus, SongmintError } from '@songmint/sdk';
import { wagmiConfig } from './config.ts';

/** A failed step, by its code (the SDK's typed error). */
function Failure({ error }: { error: SongmintError | null | undefined }) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className="error" data-code={error.code}>
      {error.message}
    </p>
  );
}

export function App() {
  const { status } = useSession();
  return (
    <main>
      <h1>Songmint with React</h1>
      <p className="lead">Sign in with your wallet, make a song, mint it, launch its coin and buy it: every step is a hook.</p>
      <Wallet />
      {status === 'signed-in' ? <Studio /> : null}
    </main>
  );
}

function Wallet() {
  const { status, address, session } = useSession();
  const signIn = useSignIn();
  const [connectError, setConnectError] = useState<string>();
  // A wallet that trusted this page before reconnects without asking.
  useEffect(() => void reconnect(wagmiConfig), []);
  const connector = wagmiConfig.connectors[0];
  return (
    <section aria-labelledby="wallet-title">
      <h2 id="wallet-title">Wallet</h2>
      {status === 'disconnected' && connector !== undefined ? (
        <button
          type="button"
          onClick={() =>
            connect(wagmiConfig, { connector }).then(
              () => setConnectError(undefined),
              (error: Error) => setConnectError(error.message),
            )
          }
        >
          Connect wallet
        </button>
      ) : null}
      {connectError === undefined ? null : <p role="alert">{connectError}</p>}
      {status === 'signed-out' ? (
        <button type="button" disabled={signIn.isPending} onClick={() => signIn.mutate()}>
          Sign in with Ethereum
        </button>
      ) : null}
      {address === undefined ? null : (
        <p id="account">
          {status === 'signed-in' ? 'Signed in as ' : 'Connected: '}
          <code>{address}</code>
          {session === undefined ? null : ` (${session.tier} tier, until ${session.expiresAt.toLocaleTimeString()})`}
        </p>
      )}
      <Failure error={signIn.error} />
    </section>
  );
}

function Studio() {
  const generate = useGenerate();
  const [prompt, setPrompt] = useState('warm lo-fi piano, 80 bpm, rainy evening');
  const [jobId, setJobId] = useState<string>();
  const job = useJob(jobId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    generate.mutate({ prompt, duration: 5 }, { onSuccess: (queued) => setJobId(queued.jobId) });
  };
  return (
    <>
      <section aria-labelledby="create-title">
        <h2 id="create-title">Make a song</h2>
        <form onSubmit={submit}>
          <label htmlFor="prompt">Prompt</label>
          <textarea id="prompt" value={prompt} onChange={(event) => setPrompt(event.target.value)} rows={2} />
          <button type="submit" disabled={generate.isPending}>
            Generate 5 s
          </button>
        </form>
        <Failure error={generate.error} />
        {job.data === undefined ? null : <JobCard job={job.data} transport={job.transport} />}
        <Failure error={job.error} />
      </section>
      {job.data?.status === 'completed' ? <MintPanel key={job.data.job_id} job={job.data} /> : null}
      <Library />
    </>
  );
}

function JobCard({ job, transport }: { job: JobStatus; transport: 'events' | 'polling' }) {
  const progress = job.status === 'completed' ? 100 : 'progress' in job ? job.progress : 0;
  return (
    <div id="job" data-status={job.status} data-job-id={job.job_id}>
      <p>
        <strong>{job.status}</strong> {progress}% <small>(followed over {transport === 'events' ? 'its event stream' : 'polling'})</small>
      </p>
      <progress id="job-progress" max={100} value={progress} aria-label="Generation progress" />
      {job.status === 'completed' ? <audio controls src={job.audio_url} aria-label="The song" /> : null}
      {job.status === 'failed' ? <p role="alert">{`${job.error.code}: ${job.error.message}`}</p> : null}
    </div>
  );
}

function MintPanel({ job }: { job: Extract<JobStatus, { status: 'completed' }> }) {
  const metadata = useUploadMetadata();
  const signature = useMintSignature();
  const mint = useMintSong();
  const [name, setName] = useState('Rainy evening');
  const [tokenId, setTokenId] = useState<bigint>();
  const busy = metadata.isPending || signature.isPending || mint.isPending;
  const onMint = async () => {
    const published = await metadata.mutateAsync({ name, audioUrl: job.audio_url, description: 'Made with the Songmint React hooks' });
    const signed = await signature.mutateAsync({ jobId: job.job_id, metadataUri: published.metadataUri });
    const minted = await mint.mutateAsync({ metadataUri: signed.metadataUri, audioHash: signed.audioHash, signature: signed.signature });
    setTokenId(minted.tokenId);
  };
  return (
    <section aria-labelledby="mint-title">
      <h2 id="mint-title">Mint it</h2>
      <label htmlFor="song-name">Name</label>
      <input id="song-name" value={name} onChange={(event) => setName(event.target.value)} />
      <button type="button" disabled={busy || tokenId !== undefined} onClick={() => void onMint().catch(() => undefined)}>
        {metadata.isPending
          ? 'Publishing metadata…'
          : signature.isPending
            ? 'Asking for the signature…'
            : mint.isPending
              ? 'Minting…'
              : 'Mint'}
      </button>
      <Failure error={metadata.error ?? signature.error ?? mint.error} />
      {tokenId === undefined ? null : (
        <>
          <p id="minted" data-token-id={tokenId.toString()}>
            Minted as #{tokenId.toString()}
          </p>
          <CoinPanel songId={tokenId} />
        </>
      )}
    </section>
  );
}

function CoinPanel({ songId }: { songId: bigint }) {
  const launch = useLaunchSong();
  return (
    <div>
      <button type="button" disabled={launch.isPending || launch.data !== undefined} onClick={() => launch.mutate({ songId })}>
        {launch.isPending ? 'Launching…' : 'Launch its coin'}
      </button>
      <Failure error={launch.error} />
      {launch.data === undefined ? null : (
        <>
          <p id="launched" data-token={launch.data.token}>
            Launched: token <code>{launch.data.token}</code>, {Number(formatUnits(launch.data.poolSupply, 18)).toLocaleString()} tokens in
            the pool
          </p>
          <BuyPanel songId={songId} />
        </>
      )}
    </div>
  );
}

function parsedEth(text: string): bigint | undefined {
  try {
    const wei = parseEther(text);
    return wei > 0n ? wei : undefined;
  } catch {
    return undefined;
  }
}

function BuyPanel({ songId }: { songId: bigint }) {
  const [eth, setEth] = useState('0.01');
  const amountIn = parsedEth(eth);
  const quote = useQuote(amountIn === undefined ? undefined : { songId, side: 'buy', amountIn });
  const buy = useBuy();
  const portfolio = usePortfolio();
  const coin = useCoin(songId);
  const held = portfolio.data?.holdings.find((holding) => holding.song_id === songId.toString());
  return (
    <section aria-labelledby="buy-title">
      <h2 id="buy-title">Buy it</h2>
      <label htmlFor="buy-eth">ETH to spend</label>
      <input id="buy-eth" inputMode="decimal" value={eth} onChange={(event) => setEth(event.target.value)} />
      <p id="quote" data-amount-out={quote.data?.amountOut.toString() ?? ''}>
        {quote.data === undefined
          ? 'Quoting…'
          : `About ${Number(formatUnits(quote.data.amountOut, 18)).toLocaleString()} tokens (launch fee now ${Number(quote.data.hookFeePips) / 10_000}%)`}
      </p>
      <Failure error={quote.error} />
      <button type="button" disabled={amountIn === undefined || buy.isPending} onClick={() => amountIn && buy.mutate({ songId, amountIn })}>
        {buy.isPending ? 'Buying…' : 'Buy'}
      </button>
      <Failure error={buy.error} />
      {buy.data === undefined ? null : (
        <p id="bought" data-amount-out={buy.data.amountOut.toString()}>
          Bought {Number(formatUnits(buy.data.amountOut, 18)).toLocaleString()} tokens for {formatEther(buy.data.amountIn)} ETH
        </p>
      )}
      {held === undefined ? null : (
        <p id="holding" data-balance={held.balance}>
          You hold {Number(formatUnits(BigInt(held.balance), 18)).toLocaleString()} tokens
        </p>
      )}
      {coin.data === undefined ? null : (
        <p id="coin" data-trades={coin.data.trades_total}>
          Coin {coin.data.symbol}: {coin.data.trades_total} trades so far
        </p>
      )}
    </section>
  );
}

function Library() {
  const jobs = useJobs({ limit: 5 });
  const loaded = jobs.data?.pages.flatMap((page) => page.jobs) ?? [];
  return (
    <section aria-labelledby="library-title">
      <h2 id="library-title">Your songs</h2>
      <ul id="library" data-pages={jobs.data?.pages.length ?? 0}>
        {loaded.map((job) => (
          <li key={job.job_id} data-job-id={job.job_id} data-status={job.status}>
            {job.title ?? job.prompt} <small>({job.status})</small>
          </li>
        ))}
      </ul>
      {jobs.hasNextPage ? (
        <button type="button" disabled={jobs.isFetchingNextPage} onClick={() => void jobs.fetchNextPage()}>
          Load more
        </button>
      ) : null}
      <Failure error={jobs.error} />
    </section>
  );
}
