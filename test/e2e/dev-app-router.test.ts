import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import express from 'express';
import { devAppRouter, ensureAppBuilt } from '../../scripts/dev-app.ts';

/** The web app as npm start serves it at /app (scripts/dev-app.ts), on loopback with its real build. */
describe('the web app server (/app)', () => {
  let server: Server;
  let base: string;
  before(async () => {
    await ensureAppBuilt();
    const app = express();
    app.use('/app', devAppRouter({ rpcUrl: 'http://127.0.0.1:8545', contracts: {}, developmentWallet: false }));
    // Stands in for the API's JSON 404 that follows the app in scripts/dev-stack.ts.
    app.use((_req, res) => {
      res.status(404).json({ error: { code: 'NOT_FOUND' } });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const page = (path: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') => fetch(`${base}${path}`, { headers: { accept } });

  it("answers an unknown /app/ page with 404 and the app's own page (its not-found view), not the API's JSON", async () => {
    const known = await page('/app/discover');
    assert.equal(known.status, 200);
    const app = await known.text();
    for (const path of ['/app/no-such-page', '/app/song/0', '/app/songs/12/extra']) {
      const missing = await page(path);
      assert.equal(missing.status, 404, path);
      assert.match(missing.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(await missing.text(), app, 'the same app page, which renders "Page not found" for the path');
    }
  });

  it('leaves a missing asset or a JSON client to the JSON 404', async () => {
    const asset = await page('/app/assets/missing.js', '*/*');
    assert.equal(asset.status, 404);
    assert.match(asset.headers.get('content-type') ?? '', /^application\/json/);
    const api = await page('/app/no-such-page', 'application/json');
    assert.equal(api.status, 404);
    assert.match(api.headers.get('content-type') ?? '', /^application\/json/);
  });
});
