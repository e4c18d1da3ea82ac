/**
 * The webhook SSRF guard's address table and allow-list (oracle/src/webhooks/address-policy.ts):
 * public unicast addresses pass, every private, loopback, link-local, shared, multicast,
 * reserved and IPv4-embedding form is refused, and the allow-list matches host and port.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAllowListed, isPublicAddress, parseAllowList } from '../../oracle/src/webhooks/address-policy.ts';
import { checkWebhookTarget } from '../../oracle/src/webhooks/target-url.ts';

describe('webhook address policy', () => {
  it('public unicast addresses of both families pass', () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '93.184.215.14',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '2a00:1450::1',
      '2001:4860::8888',
    ]) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  it('private, loopback, link-local, CGNAT, multicast, unspecified, ULA and IPv4-embedding forms are refused', () => {
    const refused = [
      '0.0.0.0',
      '10.0.0.1',
      '100.64.0.1',
      '100.127.255.255',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.51.100.1',
      '203.0.113.1',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:8.8.8.8',
      '::7f00:1',
      '64:ff9b::a00:1',
      '64:ff9b:1::1',
      '100::1',
      '2001::1',
      '2001:db8::1',
      '2002:7f00:1::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'fec0::1',
      'ff02::1',
      'not-an-ip',
      '',
    ];
    for (const address of refused) assert.equal(isPublicAddress(address), false, address);
  });

  it('parses WEBHOOK_ALLOWED_HOSTS and matches host and port', () => {
    const parsed = parseAllowList(' 127.0.0.1, localhost:8080 ,[::1]:9000,,Hooks.Local:80 ');
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value, [
      { host: '127.0.0.1' },
      { host: 'localhost', port: 8080 },
      { host: '::1', port: 9000 },
      { host: 'hooks.local', port: 80 },
    ]);
    const allowed = (url: string) => isAllowListed(new URL(url), parsed.value);
    assert.equal(allowed('http://127.0.0.1:1234/x'), true);
    assert.equal(allowed('http://localhost:8080/'), true);
    assert.equal(allowed('http://localhost:8081/'), false);
    assert.equal(allowed('http://[::1]:9000/'), true);
    assert.equal(allowed('http://[::1]:9001/'), false);
    assert.equal(allowed('http://hooks.local/'), true);
    assert.equal(allowed('https://hooks.local/'), false, 'https is port 443');
    assert.equal(allowed('http://127.0.0.2/'), false);
    for (const bad of ['http://x', 'a/b', 'u@host', 'host:port', 'host?x']) assert.equal(parseAllowList(bad).ok, false, bad);
    assert.deepEqual(parseAllowList(''), { ok: true, value: [] });
  });

  it('submit check: https and a public IP literal unless allow-listed; names pass (checked at delivery)', () => {
    const none = parseAllowList('');
    const dev = parseAllowList('127.0.0.1');
    assert.ok(none.ok && dev.ok);
    assert.equal(checkWebhookTarget('https://hooks.example/x', none.value).ok, true);
    assert.equal(checkWebhookTarget('https://localhost/x', none.value).ok, true);
    assert.deepEqual(checkWebhookTarget('http://hooks.example/x', none.value), {
      ok: false,
      error: { code: 'insecure_scheme', message: 'must be an https URL (http only for hosts in the development allow-list)' },
    });
    assert.equal(checkWebhookTarget('https://127.0.0.1/x', none.value).ok, false);
    assert.equal(checkWebhookTarget('https://[::ffff:a00:1]/x', none.value).ok, false);
    assert.deepEqual(checkWebhookTarget('http://127.0.0.1:9/x', dev.value), { ok: true, value: 'http://127.0.0.1:9/x' });
  });
});
