import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayUrl, hostOf, httpHeaders } from './address';

test('the display address has no query string and no user credentials', () => {
  assert.equal(displayUrl('wss://alice:s3cret@browser.example.com:443/devtools/browser/abc?token=t0k#frag'), 'wss://browser.example.com/devtools/browser/abc');
  assert.equal(displayUrl('ws://127.0.0.1:9222/devtools/browser/abc'), 'ws://127.0.0.1:9222/devtools/browser/abc');
});

test('messages name the host and port only', () => {
  assert.equal(hostOf('wss://a:b@h.example.com:8443/x?token=y'), 'h.example.com:8443');
  assert.equal(hostOf('ws://h.example.com/x'), 'h.example.com');
});

test('credentials in the address become Basic auth for plain HTTP calls, unless headers carry their own', () => {
  assert.deepEqual(httpHeaders('ws://alice:p%40ss@h:1/x', { 'X-A': '1' }), {
    'X-A': '1',
    Authorization: `Basic ${Buffer.from('alice:p@ss').toString('base64')}`,
  });
  assert.deepEqual(httpHeaders('ws://alice:pw@h:1/x', { authorization: 'Bearer t' }), { authorization: 'Bearer t' });
  assert.deepEqual(httpHeaders('ws://h:1/x', {}), {});
});
