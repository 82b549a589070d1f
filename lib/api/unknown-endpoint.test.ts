import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { publicProxyHttpUrl, unknownEndpoint } from './unknown-endpoint';

const saved = { PUBLIC_PROXY_URL: process.env.PUBLIC_PROXY_URL, PORT: process.env.PORT };
afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

test('the proxy is named by PUBLIC_PROXY_URL, else by the host the request came to and PORT', () => {
  delete process.env.PUBLIC_PROXY_URL;
  process.env.PORT = '9600';
  assert.equal(publicProxyHttpUrl('dash.example.com:3000'), 'http://dash.example.com:9600');
  assert.equal(publicProxyHttpUrl(null), 'http://localhost:9600');
  assert.equal(publicProxyHttpUrl('bad host:::'), 'http://localhost:9600');
  process.env.PUBLIC_PROXY_URL = 'wss://proxy.example.com/';
  assert.equal(publicProxyHttpUrl('dash.example.com'), 'https://proxy.example.com');
});

test('the data API on the web port says where it lives; other unknown paths are a plain not_found', () => {
  process.env.PUBLIC_PROXY_URL = 'https://proxy.example.com';
  const screenshot = unknownEndpoint('POST', '/v1/screenshot', 'dash.example.com');
  assert.deepEqual([screenshot.status, screenshot.code], [404, 'not_found']);
  assert.equal(screenshot.message, 'the data API is served by the proxy, not on this port: POST https://proxy.example.com/v1/screenshot with a router key');
  assert.match(unknownEndpoint('POST', '/v1/scrape', null).message, /POST https:\/\/proxy\.example\.com\/v1\/scrape/);
  assert.match(unknownEndpoint('GET', '/v1/connect', null).message, /wss:\/\/proxy\.example\.com\/v1\/connect/);
  assert.equal(unknownEndpoint('GET', '/v1/nothing', null).message, 'no endpoint GET /v1/nothing');
});
