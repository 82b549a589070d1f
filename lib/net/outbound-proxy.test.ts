import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bypassed, proxyFor } from './outbound-proxy';

test('proxyFor: HTTP_PROXY for ws/http, HTTPS_PROXY for wss/https, lower case too; NO_PROXY wins', () => {
  const env = { HTTP_PROXY: 'http://proxy:3128', https_proxy: 'proxy-s:8080' };
  assert.equal(proxyFor(new URL('ws://browser.example/x'), env)?.href, 'http://proxy:3128/');
  assert.equal(proxyFor(new URL('https://browser.example/x'), env)?.href, 'http://proxy-s:8080/');
  assert.equal(proxyFor(new URL('ws://browser.example/x'), {}), null);
  assert.equal(proxyFor(new URL('ws://browser.example/x'), { ...env, NO_PROXY: 'example' }), null);
  assert.throws(() => proxyFor(new URL('wss://a.b'), { HTTPS_PROXY: 'socks5://p:1080' }), /http:\/\/ proxy/);
});

test('NO_PROXY: *, names with their subdomains, leading dots and stars, ports, IPs', () => {
  const url = (raw: string) => new URL(raw);
  assert.ok(bypassed(url('ws://anything:1'), '*'));
  assert.ok(bypassed(url('ws://a.example.com'), 'example.com'));
  assert.ok(bypassed(url('ws://example.com'), '.example.com'));
  assert.ok(bypassed(url('ws://a.example.com'), '*.example.com'));
  assert.ok(!bypassed(url('ws://notexample.com'), 'example.com'));
  assert.ok(bypassed(url('ws://host:9222'), 'other, host:9222'));
  assert.ok(!bypassed(url('ws://host:9223'), 'host:9222'));
  assert.ok(bypassed(url('wss://host'), 'host:443'));
  assert.ok(bypassed(url('ws://127.0.0.1:9222'), '127.0.0.1'));
  assert.ok(bypassed(url('ws://[::1]:9222'), '[::1]'));
  assert.ok(!bypassed(url('ws://10.0.0.1'), '10.0.0.2 localhost'));
});
