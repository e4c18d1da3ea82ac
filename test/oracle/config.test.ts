import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import { loadConfig, webhookSettings } from '../../oracle/src/config.ts';

describe('configuration from the environment', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const result = loadConfig({});
    assert.ok(result.ok);
    assert.equal(result.value.PORT, 3000);
    assert.equal(result.value.HOST, '127.0.0.1');
    assert.equal(result.value.DATA_DIR, '.data');
    assert.equal(result.value.QUEUE_CAPACITY, 1000);
    assert.equal(result.value.DATABASE_URL, undefined);
  });

  it('enforces model licences unless ALLOW_NONCOMMERCIAL_MODEL_MINTING is exactly true, and rejects other values', () => {
    const byDefault = loadConfig({});
    assert.ok(byDefault.ok);
    assert.equal(byDefault.value.ALLOW_NONCOMMERCIAL_MODEL_MINTING, false);
    const allowed = loadConfig({ ALLOW_NONCOMMERCIAL_MODEL_MINTING: 'true' });
    assert.ok(allowed.ok);
    assert.equal(allowed.value.ALLOW_NONCOMMERCIAL_MODEL_MINTING, true);
    const typo = loadConfig({ ALLOW_NONCOMMERCIAL_MODEL_MINTING: 'yes' });
    assert.ok(!typo.ok);
    assert.match(typo.error.problems.join('\n'), /^ALLOW_NONCOMMERCIAL_MODEL_MINTING: must be true or false/m);
  });

  it('MINT_MAX_OUTSIDE_SHARE: 0.5 by default, a number from 0 to 1, anything else named', () => {
    const byDefault = loadConfig({});
    assert.ok(byDefault.ok);
    assert.equal(byDefault.value.MINT_MAX_OUTSIDE_SHARE, 0.5);
    for (const [value, share] of [
      ['0', 0],
      ['0.25', 0.25],
      ['1', 1],
    ] as const) {
      const set = loadConfig({ MINT_MAX_OUTSIDE_SHARE: value });
      assert.ok(set.ok, value);
      assert.equal(set.value.MINT_MAX_OUTSIDE_SHARE, share);
    }
    for (const value of ['1.5', '-0.1', 'half']) {
      const bad = loadConfig({ MINT_MAX_OUTSIDE_SHARE: value });
      assert.ok(!bad.ok, value);
      assert.match(bad.error.problems.join('\n'), /^MINT_MAX_OUTSIDE_SHARE: /m);
    }
  });

  it('names every bad value with a clear message and hides secrets', () => {
    const result = loadConfig({
      PORT: 'eighty',
      QUEUE_CAPACITY: '-1',
      DATABASE_URL: 'mysql://db/x',
      JWT_SECRET: 'short-secret',
      S3_FORCE_PATH_STYLE: 'maybe',
      STORAGE_PUBLIC_URL: 'not a url',
      PLATFORM_SIGNER_KEY: '0x1234',
      S3_BUCKET: 'Bad_Bucket',
    });
    assert.ok(!result.ok);
    const text = result.error.problems.join('\n');
    for (const key of [
      'PORT',
      'QUEUE_CAPACITY',
      'DATABASE_URL',
      'JWT_SECRET',
      'S3_FORCE_PATH_STYLE',
      'STORAGE_PUBLIC_URL',
      'PLATFORM_SIGNER_KEY',
      'S3_BUCKET',
    ]) {
      assert.match(text, new RegExp(`^${key}: `, 'm'), key);
    }
    assert.match(text, /DATABASE_URL: must be a postgres:\/\/ URL \(got "mysql:\/\/db\/x"\)/);
    assert.ok(!text.includes('short-secret'));
    assert.ok(!text.includes('0x1234'));
  });

  it('requires real secrets and services in production', () => {
    const result = loadConfig({ NODE_ENV: 'production' });
    assert.ok(!result.ok);
    const text = result.error.problems.join('\n');
    for (const key of ['JWT_SECRET', 'PLATFORM_SIGNER_KEY', 'DATABASE_URL', 'SIWE_DOMAIN'])
      assert.match(text, new RegExp(`^${key}: required in production`, 'm'));
    const complete = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      PLATFORM_SIGNER_KEY: `0x${'11'.repeat(32)}`,
      DATABASE_URL: 'postgres://u:p@db:5432/songmint',
      SIWE_DOMAIN: 'app.songmint.xyz',
    });
    assert.ok(complete.ok);
  });

  it('checks settings that go together', () => {
    const result = loadConfig({
      S3_ENDPOINT: 'http://minio:9000',
      IPFS_PINNING_URL: 'https://pins.example',
      CHAIN_RPC_URL: 'http://127.0.0.1:8545',
    });
    assert.ok(!result.ok);
    const text = result.error.problems.join('\n');
    assert.match(text, /S3_ACCESS_KEY_ID: S3_ENDPOINT needs/);
    assert.match(text, /IPFS_PINNING_TOKEN: IPFS_PINNING_URL needs/);
    assert.match(text, /SONG_NFT_ADDRESS: CHAIN_RPC_URL and SONG_NFT_ADDRESS go together/);
    const lookupOnly = loadConfig({ ACOUSTID_LOOKUP_URL: 'https://api.acoustid.org/v2/lookup', ACOUSTID_MIN_SCORE: '1.5' });
    assert.ok(!lookupOnly.ok);
    assert.match(lookupOnly.error.problems.join('\n'), /ACOUSTID_CLIENT_KEY: ACOUSTID_LOOKUP_URL and ACOUSTID_CLIENT_KEY go together/);
    assert.match(lookupOnly.error.problems.join('\n'), /ACOUSTID_MIN_SCORE/);
    const lookup = loadConfig({ ACOUSTID_LOOKUP_URL: 'https://api.acoustid.org/v2/lookup', ACOUSTID_CLIENT_KEY: 'k3y' });
    assert.ok(lookup.ok);
    assert.deepEqual([lookup.value.ACOUSTID_MIN_SCORE, lookup.value.ACOUSTID_TIMEOUT_MS], [0.9, 5000]);
    const hubKeyOnly = loadConfig({ FARCASTER_HUB_API_KEY: 'k3y', FARCASTER_HUB_TIMEOUT_MS: '0' });
    assert.ok(!hubKeyOnly.ok);
    assert.match(hubKeyOnly.error.problems.join('\n'), /FARCASTER_HUB_API_KEY: FARCASTER_HUB_API_KEY needs FARCASTER_HUB_URL/);
    assert.match(hubKeyOnly.error.problems.join('\n'), /FARCASTER_HUB_TIMEOUT_MS/);
    assert.ok(!loadConfig({ FARCASTER_HUB_URL: 'hub.example:3381' }).ok, 'a hub URL that is not http(s)');
    const hub = loadConfig({ FARCASTER_HUB_URL: 'https://snapchain-api.neynar.com' });
    assert.ok(hub.ok);
    assert.deepEqual([hub.value.FARCASTER_HUB_URL, hub.value.FARCASTER_HUB_TIMEOUT_MS], ['https://snapchain-api.neynar.com', 2000]);
    const vaultOnly = loadConfig({ SONG_VAULT_ADDRESS: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853' });
    assert.ok(!vaultOnly.ok);
    assert.match(vaultOnly.error.problems.join('\n'), /SONG_VAULT_ADDRESS: SONG_VAULT_ADDRESS needs CHAIN_RPC_URL/);
    const pools = loadConfig({
      CHAIN_RPC_URL: 'http://127.0.0.1:8545',
      SONG_NFT_ADDRESS: '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707',
      SONG_VAULT_ADDRESS: '0xa513E6E4b8f2a923D98304ec87F64353C4D5C853',
    });
    assert.ok(pools.ok);
    assert.equal(
      pools.value.POOL_MANAGER_ADDRESS,
      '0x498581fF718922c3f8e6A244956aF099B2652b2b',
      "Uniswap v4's PoolManager on Base by default",
    );
    assert.equal(pools.value.ETH_USD_FEED_ADDRESS, undefined, 'no ETH/USD feed unless one is named: ETH only');
    const feedAlone = loadConfig({ ETH_USD_FEED_ADDRESS: '0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70' });
    assert.ok(!feedAlone.ok);
    assert.match(
      feedAlone.error.problems.join('\n'),
      /ETH_USD_FEED_ADDRESS: ETH_USD_FEED_ADDRESS needs CHAIN_RPC_URL and SONG_VAULT_ADDRESS/,
    );
  });

  it('parses CORS_ORIGINS as * or a list of origins', () => {
    const list = loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' });
    assert.ok(list.ok);
    assert.deepEqual(list.value.CORS_ORIGINS, ['https://a.example', 'http://localhost:5173']);
    const bad = loadConfig({ CORS_ORIGINS: 'https://a.example/path' });
    assert.ok(!bad.ok);
    assert.match(bad.error.problems.join('\n'), /^CORS_ORIGINS: /m);
  });

  it('webhook settings: an empty allow-list by default, host and host:port entries, none allowed in production', () => {
    const byDefault = loadConfig({});
    assert.ok(byDefault.ok);
    assert.deepEqual(webhookSettings(byDefault.value).allowList, []);
    assert.equal(webhookSettings(byDefault.value).attemptTimeoutMs, 10_000);
    assert.equal(webhookSettings(byDefault.value).retryLimit, 8);
    const dev = loadConfig({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1, localhost:8080', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_LIMIT: '0' });
    assert.ok(dev.ok);
    assert.deepEqual(webhookSettings(dev.value).allowList, [{ host: '127.0.0.1' }, { host: 'localhost', port: 8080 }]);
    assert.equal(webhookSettings(dev.value).retryLimit, 0);
    const bad = loadConfig({ WEBHOOK_ALLOWED_HOSTS: 'http://x/', WEBHOOK_TIMEOUT_MS: '0', WEBHOOK_CONCURRENCY: 'many' });
    assert.ok(!bad.ok);
    for (const key of ['WEBHOOK_ALLOWED_HOSTS', 'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_CONCURRENCY'])
      assert.match(bad.error.problems.join('\n'), new RegExp(`^${key}: `, 'm'));
    const production = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'x'.repeat(32),
      PLATFORM_SIGNER_KEY: `0x${'11'.repeat(32)}`,
      DATABASE_URL: 'postgres://u:p@db:5432/songmint',
      SIWE_DOMAIN: 'app.songmint.xyz',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    });
    assert.ok(!production.ok);
    assert.match(production.error.problems.join('\n'), /^WEBHOOK_ALLOWED_HOSTS: must be empty in production/m);
  });

  it('TRUST_PROXY: loopback by default; a hop count, an address/CIDR list or off; true and malformed entries refused', () => {
    const parsed = (value?: string) => {
      const result = loadConfig(value === undefined ? {} : { TRUST_PROXY: value });
      return result.ok ? result.value.TRUST_PROXY : result.error.problems.join('\n');
    };
    assert.deepEqual(parsed(), ['loopback']);
    assert.deepEqual(parsed(''), ['loopback'], 'empty is unset');
    assert.equal(parsed('1'), 1);
    assert.equal(parsed('2'), 2);
    for (const off of ['false', 'off', '0', 'FALSE']) assert.equal(parsed(off), false, off);
    assert.deepEqual(parsed('10.0.0.0/8, 2001:db8::/32,loopback, 192.0.2.7'), ['10.0.0.0/8', '2001:db8::/32', 'loopback', '192.0.2.7']);
    assert.match(String(parsed('true')), /^TRUST_PROXY: true trusts every hop, so any client picks its own address/);
    assert.match(String(parsed('33')), /^TRUST_PROXY: a hop count must be 1 to 32/);
    assert.match(String(parsed('10.0.0.0/33')), /^TRUST_PROXY: "10.0.0.0\/33": the prefix length must be 1 to 32/);
    // A range of every address trusts every hop, as true does; Express threw on it at start (issue 49).
    for (const everyone of ['0.0.0.0/0', '::/0', '10.0.0.1, ::/0']) {
      assert.match(String(parsed(everyone)), /is every address, which trusts every hop as true does/, everyone);
    }
    // Whatever passes validation, Express compiles (the oracle starts with it).
    for (const value of [undefined, '1', 'off', '10.0.0.0/8, 2001:db8::/32,loopback', '0.0.0.0/1', '::/1', '192.0.2.7/32']) {
      const setting = parsed(value);
      assert.ok(typeof setting !== 'string' || setting === 'loopback', `${value}: ${String(setting)}`);
      assert.doesNotThrow(() => express().set('trust proxy', setting), `${value} compiles`);
    }
    assert.match(String(parsed('proxy.internal')), /^TRUST_PROXY: "proxy.internal" is not an IP address, a CIDR range or one of loopback/);
    assert.match(String(parsed('10.0.0.1,,10.0.0.2')), /^TRUST_PROXY: an empty entry/);
  });

  it('uploads in flight: 4 per process and 2 per user by default, positive whole numbers', () => {
    const byDefault = loadConfig({});
    assert.ok(byDefault.ok);
    assert.deepEqual([byDefault.value.UPLOADS_IN_FLIGHT, byDefault.value.UPLOADS_IN_FLIGHT_PER_USER], [4, 2]);
    const set = loadConfig({ UPLOADS_IN_FLIGHT: '16', UPLOADS_IN_FLIGHT_PER_USER: '1' });
    assert.ok(set.ok);
    assert.deepEqual([set.value.UPLOADS_IN_FLIGHT, set.value.UPLOADS_IN_FLIGHT_PER_USER], [16, 1]);
    const bad = loadConfig({ UPLOADS_IN_FLIGHT: '0', UPLOADS_IN_FLIGHT_PER_USER: 'two' });
    assert.ok(!bad.ok);
    assert.match(bad.error.problems.join('\n'), /^UPLOADS_IN_FLIGHT: /m);
    assert.match(bad.error.problems.join('\n'), /^UPLOADS_IN_FLIGHT_PER_USER: /m);
  });

  it('treats empty variables as unset', () => {
    const result = loadConfig({ PORT: '', DATABASE_URL: '' });
    assert.ok(result.ok);
    assert.equal(result.value.PORT, 3000);
  });
});
