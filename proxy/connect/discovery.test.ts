// Where CDP discovery's webSocketDebuggerUrl points: PUBLIC_PROXY_URL, else the Host the client
// used (X-Forwarded-Host/-Proto only behind a trusted reverse proxy); nothing smuggled in a Host.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectBase } from './discovery';

const req = (headers: Record<string, string>) => ({ headers });

test('PUBLIC_PROXY_URL wins, as ws/wss, path prefix kept, query dropped', () => {
  const at = (publicUrl: string) => connectBase(req({ host: 'internal:9500' }), { publicUrl, trustProxy: false })?.toString();
  assert.equal(at('https://cdp.example.com'), 'wss://cdp.example.com/');
  assert.equal(at('http://10.0.0.5:9500/'), 'ws://10.0.0.5:9500/');
  assert.equal(at('wss://example.com/browsers?x=1'), 'wss://example.com/browsers');
});

test('otherwise the Host header; forwarded host and scheme only with TRUST_PROXY', () => {
  assert.equal(connectBase(req({ host: '127.0.0.1:9500' }), { trustProxy: false })?.toString(), 'ws://127.0.0.1:9500/');
  assert.equal(connectBase(req({ host: '[::1]:9500' }), { trustProxy: false })?.toString(), 'ws://[::1]:9500/');
  const forwarded = { host: 'internal:9500', 'x-forwarded-host': 'cdp.example.com', 'x-forwarded-proto': 'https' };
  assert.equal(connectBase(req(forwarded), { trustProxy: false })?.toString(), 'ws://internal:9500/');
  assert.equal(connectBase(req(forwarded), { trustProxy: true })?.toString(), 'wss://cdp.example.com/');
  for (const host of ['', 'user:pw@evil.test', 'evil.test/path', 'evil.test?x=1', 'a b']) {
    assert.equal(connectBase(req({ host }), { trustProxy: false }), null, JSON.stringify(host));
  }
});
