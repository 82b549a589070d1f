import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { setEnv } from '../config/testing';
import { publicProxyHttpUrl, unknownEndpoint } from './unknown-endpoint';

const restores: (() => void)[] = [];
const set = (changes: Record<string, string | undefined>) => restores.push(setEnv(changes));
afterEach(() => {
  for (const restore of restores.splice(0).reverse()) restore();
});

test('the proxy is named by PUBLIC_PROXY_URL, else by the host the request came to and PORT', () => {
  set({ PUBLIC_PROXY_URL: undefined, PORT: '9600' });
  assert.equal(publicProxyHttpUrl('dash.example.com:3000'), 'http://dash.example.com:9600');
  assert.equal(publicProxyHttpUrl(null), 'http://localhost:9600');
  assert.equal(publicProxyHttpUrl('bad host:::'), 'http://localhost:9600');
  set({ PUBLIC_PROXY_URL: 'wss://proxy.example.com/' });
  assert.equal(publicProxyHttpUrl('dash.example.com'), 'https://proxy.example.com');
});

test('the data API on the web port says where it lives; other unknown paths are a plain not_found', () => {
  set({ PUBLIC_PROXY_URL: 'https://proxy.example.com' });
  const screenshot = unknownEndpoint('POST', '/v1/screenshot', 'dash.example.com');
  assert.deepEqual([screenshot.status, screenshot.code], [404, 'not_found']);
  assert.equal(screenshot.message, 'the data API is served by the proxy, not on this port: POST https://proxy.example.com/v1/screenshot with a router key');
  assert.match(unknownEndpoint('POST', '/v1/scrape', null).message, /POST https:\/\/proxy\.example\.com\/v1\/scrape/);
  assert.match(unknownEndpoint('GET', '/v1/connect', null).message, /wss:\/\/proxy\.example\.com\/v1\/connect/);
  assert.equal(unknownEndpoint('GET', '/v1/nothing', null).message, 'no endpoint GET /v1/nothing');
});
