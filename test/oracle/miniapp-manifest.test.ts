import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { domainManifestSchema } from '@farcaster/miniapp-core';
import express from 'express';
import { privateKeyToAccount } from 'viem/accounts';
import { loadConfig, miniAppManifestOf } from '../../oracle/src/config.ts';
import { miniAppManifestRouter } from '../../oracle/src/http/miniapp-manifest.ts';

// A Farcaster custody key of the operator (Hardhat's dev account #2: public knowledge).
const operator = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An account association as Farcaster's manifest tool makes it: JSON Farcaster Signature over the domain. */
async function accountAssociation(domain: string): Promise<string> {
  const header = b64url({ fid: 4242, type: 'custody', key: operator.address });
  const payload = b64url({ domain });
  const signature = Buffer.from((await operator.signMessage({ message: `${header}.${payload}` })).slice(2), 'hex').toString('base64url');
  return JSON.stringify({ header, payload, signature });
}

const miniAppEnv = async (overrides: Record<string, string> = {}) => ({
  SIWE_DOMAIN: 'songmint.test',
  FARCASTER_ACCOUNT_ASSOCIATION: await accountAssociation('songmint.test'),
  MINIAPP_ICON_URL: 'https://songmint.test/app/icon.png',
  MINIAPP_HOME_URL: 'https://songmint.test/app/',
  MINIAPP_SPLASH_BACKGROUND_COLOR: '#151129',
  ...overrides,
});

describe('/.well-known/farcaster.json from configuration', () => {
  it('serves the operator’s manifest, which passes the published schema', async () => {
    const config = loadConfig(await miniAppEnv());
    assert.ok(config.ok, config.ok ? '' : config.error.problems.join('\n'));
    const manifest = miniAppManifestOf(config.value);
    assert.ok(manifest?.ok);
    const app = express().use('/.well-known', miniAppManifestRouter(manifest.value));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/farcaster.json`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const parsed = domainManifestSchema.safeParse(await res.json());
      assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
      assert.equal(parsed.data.miniapp?.name, 'Songmint');
      assert.equal(parsed.data.miniapp?.homeUrl, 'https://songmint.test/app/');
      assert.deepEqual(parsed.data.miniapp?.requiredChains, ['eip155:8453']);
      const signed = JSON.parse(Buffer.from(parsed.data.accountAssociation.payload, 'base64url').toString()) as { domain: string };
      assert.equal(signed.domain, 'songmint.test');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('is absent without an account association, and refuses one signed for another domain or fields the schema refuses', async () => {
    const plain = loadConfig({});
    assert.ok(plain.ok);
    assert.equal(miniAppManifestOf(plain.value), undefined);

    const otherDomain = loadConfig(await miniAppEnv({ FARCASTER_ACCOUNT_ASSOCIATION: await accountAssociation('evil.example') }));
    assert.ok(!otherDomain.ok);
    assert.match(otherDomain.error.problems.join('\n'), /FARCASTER_ACCOUNT_ASSOCIATION: .*signed for evil\.example.*songmint\.test/);

    const plainHttp = loadConfig(await miniAppEnv({ MINIAPP_ICON_URL: 'http://songmint.test/app/icon.png' }));
    assert.ok(!plainHttp.ok);
    assert.match(plainHttp.error.problems.join('\n'), /iconUrl: Must be an https url/);

    const noIcon = await miniAppEnv();
    delete (noIcon as Record<string, string>).MINIAPP_ICON_URL;
    const missing = loadConfig(noIcon);
    assert.ok(!missing.ok);
    assert.match(missing.error.problems.join('\n'), /needs MINIAPP_ICON_URL and MINIAPP_HOME_URL/);

    const garbage = loadConfig(await miniAppEnv({ FARCASTER_ACCOUNT_ASSOCIATION: 'not json' }));
    assert.ok(!garbage.ok);
    assert.match(garbage.error.problems.join('\n'), /JSON \{header, payload, signature\}/);
  });
});
