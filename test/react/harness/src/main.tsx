/**
 * The hook test page: each probe renders one hook's state as JSON in <pre id=…>, and buttons
 * start its mutations; the test (Node, Playwright) presses them and reads the JSON. The page gets
 * the song to work on from its query string (?job=gen_…&song=<token id>).
 */
import { StrictMode, useState } from 'react';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient } from '@tanstack/react-query';
import { connect, createConfig, http, injected } from '@wagmi/core';
import { localBaseChain, SongmintError } from '@songmint/sdk';
import {
  SongmintProvider,
  useAllocation,
  useClaimFees,
  useCoin,
  useCreatePreview,
  useCreator,
  useDownloadLink,
  useDownloadSong,
  useEditSong,
  useJob,
  useJobs,
  useMintSignature,
  usePortfolio,
  usePreview,
  useProfile,
  useQuote,
  useSell,
  useSession,
  useSignIn,
  useUploadAudio,
} from '@songmint/react';

const API_URL: string = import.meta.env.VITE_SONGMINT_API_URL ?? 'http://127.0.0.1:3000';
const RPC_URL: string = import.meta.env.VITE_SONGMINT_RPC_URL ?? 'http://127.0.0.1:3002';
const chain = localBaseChain(RPC_URL);
// npm start's chain has no Multicall3: no multicall batching.
const config = createConfig({
  chains: [chain],
  connectors: [injected()],
  transports: { [chain.id]: http(RPC_URL) },
  batch: { multicall: false },
});
const search = new URLSearchParams(location.search);
const JOB_ID = search.get('job') ?? '';
const SONG_ID = BigInt(search.get('song') ?? '0');

/** JSON with bigints as strings, errors as their class, code and message, and no nulls (TanStack Query's "no error"). */
const json = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner === null
      ? undefined
      : typeof inner === 'bigint'
        ? inner.toString()
        : inner instanceof Error
          ? {
              class: inner.name,
              isSongmintError: inner instanceof SongmintError,
              code: (inner as { code?: unknown }).code,
              message: inner.message,
            }
          : inner,
  );

function Probe({ id, state, children }: { id: string; state: unknown; children?: ReactNode }) {
  return (
    <section>
      <h2>{id}</h2>
      {children}
      <pre id={id} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {json(state)}
      </pre>
    </section>
  );
}

function SignIn() {
  const session = useSession();
  const signIn = useSignIn();
  const connector = config.connectors[0];
  return (
    <Probe id="session" state={{ status: session.status, address: session.address, error: signIn.error }}>
      <button id="connect" onClick={() => connector && void connect(config, { connector })}>
        connect
      </button>
      <button id="sign-in" onClick={() => signIn.mutate()}>
        sign in
      </button>
    </Probe>
  );
}

function Jobs() {
  const jobs = useJobs({ limit: 1 });
  return (
    <Probe
      id="jobs"
      state={{
        pages: jobs.data?.pages.map((page) => page.jobs.map((job) => ({ id: job.job_id, status: job.status, progress: job.progress }))),
        total: jobs.data?.pages[0]?.total,
        hasNextPage: jobs.hasNextPage,
        error: jobs.error,
      }}
    >
      <button id="jobs-more" onClick={() => void jobs.fetchNextPage()}>
        more
      </button>
    </Probe>
  );
}

function Edit() {
  const edit = useEditSong();
  const job = useJob(edit.data?.jobId);
  const [seen, setSeen] = useState<string[]>([]);
  const status = job.data === undefined ? undefined : `${job.data.status}:${'progress' in job.data ? job.data.progress : ''}`;
  if (status !== undefined && seen.at(-1) !== status) setSeen([...seen, status]);
  return (
    <Probe
      id="edit"
      state={{ jobId: edit.data?.jobId, status: job.data?.status, transport: job.transport, seen, error: edit.error ?? job.error }}
    >
      <button
        id="edit-extend"
        onClick={() => edit.mutate({ task: 'extend', seconds: 2, sourceJobId: JOB_ID, sourceDuration: 5, prompt: 'more piano' })}
      >
        extend
      </button>
    </Probe>
  );
}

/** A 2 s, 8 kHz, mono 16-bit WAV of a 440 Hz tone. */
function toneWav(): Uint8Array {
  const rate = 8000;
  const samples = rate * 2;
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => [...value].forEach((char, index) => view.setUint8(offset + index, char.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  text(8, 'WAVEfmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples * 2, true);
  for (let index = 0; index < samples; index++)
    view.setInt16(44 + index * 2, Math.round(8000 * Math.sin((2 * Math.PI * 440 * index) / rate)), true);
  return bytes;
}

function Uploads() {
  const upload = useUploadAudio();
  const [progressEvents, setProgressEvents] = useState(0);
  const [lastProgress, setLastProgress] = useState('');
  const progress = upload.progress === undefined ? '' : `${upload.progress.sent}/${upload.progress.total}`;
  if (progress !== lastProgress) {
    setLastProgress(progress);
    setProgressEvents(progressEvents + 1);
  }
  return (
    <Probe id="upload" state={{ upload: upload.data, progress: upload.progress, progressEvents, error: upload.error }}>
      <button
        id="upload-junk"
        onClick={() => upload.mutate({ bytes: new TextEncoder().encode('this is not audio at all, just words'), rightsConfirmed: true })}
      >
        junk
      </button>
      <button id="upload-wav" onClick={() => upload.mutate({ bytes: toneWav(), rightsConfirmed: true })}>
        wav
      </button>
    </Probe>
  );
}

function Downloads() {
  const link = useDownloadLink(JOB_ID, 'mp3');
  const download = useDownloadSong();
  return (
    <Probe id="download" state={{ link: link.data, downloaded: download.data?.length, error: link.error ?? download.error }}>
      <button id="download-mp3" onClick={() => download.mutate({ jobId: JOB_ID, format: 'mp3' })}>
        download
      </button>
    </Probe>
  );
}

function Previews() {
  const create = useCreatePreview();
  const preview = usePreview(create.data?.sessionId);
  return (
    <Probe
      id="preview"
      state={{
        queued: create.data,
        status: preview.data?.status,
        url: preview.data?.status === 'completed' ? preview.data.preview_url : undefined,
        error: create.error ?? preview.error,
      }}
    >
      <button id="preview-create" onClick={() => create.mutate({ prompt: 'short bright synth riff', duration: 5 })}>
        preview
      </button>
    </Probe>
  );
}

function Market() {
  const session = useSession();
  const portfolio = usePortfolio();
  const held = portfolio.data?.holdings.find((holding) => holding.song_id === SONG_ID.toString());
  const half = held === undefined ? undefined : BigInt(held.balance) / 2n;
  const quote = useQuote(half === undefined || half === 0n ? undefined : { songId: SONG_ID, side: 'sell', amountIn: half }, {
    refetchIntervalMs: false,
  });
  const sell = useSell();
  const claim = useClaimFees();
  const allocation = useAllocation(SONG_ID);
  const coin = useCoin(SONG_ID);
  const creator = useCreator(session.address);
  const profile = useProfile();
  const signature = useMintSignature();
  return (
    <Probe
      id="market"
      state={{
        held: held?.balance,
        quote: quote.data === undefined ? undefined : { amountIn: quote.data.amountIn, amountOut: quote.data.amountOut },
        sold:
          sell.data === undefined
            ? undefined
            : { amountIn: sell.data.amountIn, amountOut: sell.data.amountOut, permit2ApprovalHash: sell.data.permit2ApprovalHash },
        claimed: claim.data?.claimed,
        allocation: allocation.data,
        coin:
          coin.data === undefined ? undefined : { songId: coin.data.song_id, token: coin.data.token, tradesTotal: coin.data.trades_total },
        creator: creator.data === undefined ? undefined : { address: creator.data.address },
        tier: profile.data?.tier,
        signatureError: signature.error,
        error:
          quote.error ?? sell.error ?? claim.error ?? allocation.error ?? coin.error ?? creator.error ?? portfolio.error ?? profile.error,
      }}
    >
      <button id="sell" onClick={() => half !== undefined && sell.mutate({ songId: SONG_ID, amountIn: half })}>
        sell half
      </button>
      <button id="claim" onClick={() => claim.mutate({ songIds: [SONG_ID] })}>
        claim fees
      </button>
      <button
        id="signature-again"
        onClick={() =>
          signature.mutate({ jobId: JOB_ID, metadataUri: 'ipfs://bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku' })
        }
      >
        signature again
      </button>
    </Probe>
  );
}

function Page() {
  const { status } = useSession();
  return (
    <main>
      <SignIn />
      {status === 'signed-in' ? (
        <>
          <Edit />
          <Jobs />
          <Uploads />
          <Downloads />
          <Previews />
          <Market />
        </>
      ) : null}
    </main>
  );
}

const root = document.getElementById('root');
if (root === null) throw new Error('no #root');
createRoot(root).render(
  <StrictMode>
    <SongmintProvider apiUrl={API_URL} config={config} queryClient={new QueryClient()}>
      <Page />
    </SongmintProvider>
  </StrictMode>,
);
