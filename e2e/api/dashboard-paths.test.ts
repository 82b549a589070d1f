// The dashboard's own endpoints (/api/*) and pages under the rules of /v1, over real sockets to the
// web port: a path that is not valid percent-encoding is a 400 (in the API's envelope for /api, a
// page for pages) where Next answered a text/plain 500; a method an /api route does not serve is a
// 405 in the envelope with Allow, where Next answered an empty 405 or (TRACE) a 501 or 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectEnvelope, raw } from '../support/raw-http';

test('/api: bad percent-encoding is a 400 in the envelope', async () => {
  for (const path of ['/api/sessions/%E0%A4%A/live', '/api/routers/%zz/status', '/api/billing/test-checkout/100%', '/api/auth/%C0%AF']) {
    const error = expectEnvelope(await raw('GET', path), 400, 'validation_error');
    assert.match(error.message, /not valid percent-encoding/, path);
  }
});

test('/api: a method the route does not serve is a 405 in the envelope with Allow; what it serves still works', async () => {
  for (const method of ['TRACE', 'PUT', 'DELETE', 'PROPFIND', 'POST']) {
    const res = await raw(method, '/api/health');
    const error = expectEnvelope(res, 405, 'method_not_allowed');
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS', method);
    assert.equal(error.message, `${method} is not served at /api/health; it takes GET`);
  }
  const get = await raw('GET', '/api/sign-up');
  expectEnvelope(get, 405, 'method_not_allowed');
  assert.equal(get.headers.allow, 'OPTIONS, POST');
  expectEnvelope(await raw('TRACE', '/api/auth/session'), 405, 'method_not_allowed');
  assert.equal((await raw('GET', '/api/health')).status, 200);
  assert.equal((await raw('GET', '/api/auth/csrf')).status, 200, "next-auth's catch-all still answers");
  expectEnvelope(await raw('TRACE', '/api/no-such-endpoint'), 404, 'not_found');
});

test('pages: bad percent-encoding is a 400 page, not a 500; a valid path still renders', async () => {
  for (const path of ['/sessions/%E0%A4%A', '/%zz', '/routers/100%']) {
    const res = await raw('GET', path);
    assert.equal(res.status, 400, path);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.text, /<h1>Bad request<\/h1>/);
  }
  const head = await raw('HEAD', '/%zz');
  assert.deepEqual([head.status, head.text], [400, '']);
  assert.equal((await raw('GET', '/sign-in?next=%zz')).status, 200, "the query is the page's business");
  assert.equal((await raw('TRACE', '/sign-in')).status, 501);
});
