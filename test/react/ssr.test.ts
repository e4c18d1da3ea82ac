/**
 * @songmint/react on a server: the provider and the hooks render with react-dom/server in Node,
 * where there is no window, no document and no localStorage, and the markup is what a client
 * renders before hydration (signed out, nothing fetched). The package's types are checked in the
 * repository's Node program, which has no DOM library: a use of `window` would not compile.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { QueryClient } from '@tanstack/react-query';
import { createConfig, http, injected } from '@wagmi/core';
import { localBaseChain } from '@songmint/sdk';
import {
  SongmintProvider,
  songmintKeys,
  useCoin,
  useJob,
  useJobs,
  usePortfolio,
  useProfile,
  useQuote,
  useSession,
  useUploadAudio,
} from '@songmint/react';

function Probe() {
  const { status, address } = useSession();
  const jobs = useJobs();
  const job = useJob('gen_x');
  const coin = useCoin(1n);
  const portfolio = usePortfolio();
  const profile = useProfile();
  const quote = useQuote(undefined);
  const upload = useUploadAudio();
  return createElement(
    'p',
    { id: 'probe' },
    [
      status,
      address ?? 'no-wallet',
      jobs.status,
      job.status,
      coin.fetchStatus,
      portfolio.status,
      profile.status,
      quote.status,
      upload.status,
    ].join(' '),
  );
}

describe('@songmint/react on a server (react-dom/server, no DOM)', () => {
  it('renders the provider and the hooks without a window: signed out, no wallet, nothing fetched while rendering', async () => {
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    assert.equal(typeof (globalThis as { localStorage?: unknown }).localStorage, 'undefined');
    const chain = localBaseChain('http://127.0.0.1:9');
    const config = createConfig({ chains: [chain], connectors: [injected()], transports: { [chain.id]: http() }, ssr: true });
    const queryClient = new QueryClient();
    const html = renderToString(
      createElement(SongmintProvider, { apiUrl: 'http://127.0.0.1:9', config, queryClient }, createElement(Probe)),
    );
    // An enabled public read (the coin) says `fetching` as TanStack Query renders it optimistically,
    // on the server as on the client's first render (so hydration matches); it fetches only once mounted.
    assert.equal(html, '<p id="probe">disconnected no-wallet pending pending fetching pending pending pending idle</p>');
    // The render started no request: nothing is in flight, no query has data or an error.
    assert.equal(queryClient.isFetching(), 0);
    for (const query of queryClient.getQueryCache().getAll()) assert.equal(query.state.status, 'pending', JSON.stringify(query.queryKey));
  });

  it('keys bigint amounts as decimal strings and addresses in lower case (TanStack Query hashes keys as JSON)', () => {
    const key = songmintKeys.quote(7n, 'buy', { amountIn: 10n ** 18n }, 100);
    assert.equal(
      JSON.stringify(key),
      '["songmint","quote","7",{"side":"buy","amountIn":"1000000000000000000","amountOut":null,"slippageBps":100}]',
    );
    assert.deepEqual(songmintKeys.portfolio('0xAbC0000000000000000000000000000000000001'), [
      'songmint',
      'portfolio',
      '0xabc0000000000000000000000000000000000001',
    ]);
    assert.deepEqual(
      songmintKeys.jobs('0x00000000000000000000000000000000000000Aa').slice(0, 4),
      songmintKeys.jobLists('0x00000000000000000000000000000000000000aA'),
    );
  });
});
