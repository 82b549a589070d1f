import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { BODY_LENGTH_HEADER, restoreContentLength } from './body-length';

test('the body-length header becomes Content-Length, however the head is sent', async () => {
  const server = http.createServer((req, res) => {
    restoreContentLength(res);
    if (req.url === '/none') return void res.end('plain');
    res.setHeader(BODY_LENGTH_HEADER, '5');
    if (req.url === '/streamed') {
      res.flushHeaders();
      res.write('he');
      return void res.end('llo');
    }
    res.writeHead(206, { 'Content-Type': 'text/plain' }).end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const path of ['/streamed', '/explicit']) {
      const response = await fetch(base + path);
      assert.equal(response.headers.get('content-length'), '5', path);
      assert.equal(response.headers.get(BODY_LENGTH_HEADER), null, `${path}: the private header is not sent`);
      assert.equal(response.headers.get('transfer-encoding'), null, path);
      assert.equal(await response.text(), 'hello');
    }
    const head = await fetch(`${base}/explicit`, { method: 'HEAD' });
    assert.equal(head.headers.get('content-length'), '5');
    const plain = await fetch(`${base}/none`);
    assert.equal(await plain.text(), 'plain', 'other answers are left alone');
  } finally {
    server.close();
  }
});
