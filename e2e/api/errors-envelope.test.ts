// Every control-plane error in the envelope `{ ok: false, error: { code, message, details? } }`,
// for the inputs a fuzzer found answered with a 500, an HTML page or an empty body: NUL characters,
// bad percent-encoding, unserved methods (TRACE…), odd paths, oversized and non-JSON bodies; and
// validation messages that say what is wrong, with `details` per field. Raw `node:http` requests
// where fetch would normalise the path or refuse the method.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { addMember, call, expectError, expectOk, newUser, WEB, type TestUser } from '../support/api';
import { expectEnvelope, parseJson as parse, raw, type RawRes } from '../support/raw-http';
import { fetchFromOwnAddress } from '../support/connect';
import { CONTROL_PLANE_ROUTES } from '../../lib/api/routes';
import { MAX_BODY_BYTES } from '../../lib/api/request-body';

const web = new URL(WEB);

/** The billing endpoints' envelope: `error` is the code as a bare string, invalid input `bad_request`. */
function expectBillingEnvelope(res: RawRes, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text.slice(0, 300)}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  for (const key of Object.keys(res.json ?? {})) assert.ok(['ok', 'error', 'message', 'details'].includes(key), `unexpected ${key}`);
  assert.equal(res.json.ok, false);
  assert.equal(res.json.error, code === 'validation_error' ? 'bad_request' : code);
  assert.ok(typeof res.json.message === 'string' && res.json.message.length > 0);
  if (res.json.details !== undefined) for (const d of res.json.details) assert.deepEqual(Object.keys(d).sort(), ['message', 'path']);
  return { code: res.json.error as string, message: res.json.message as string };
}

const isBilling = (pattern: string) => pattern.startsWith('/v1/billing') || pattern.startsWith('/v1/credits');

const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
const json = (user: TestUser) => ({ ...bearer(user), 'content-type': 'application/json' });
const NUL = /must not contain the NUL character/;

let user: TestUser;
before(async () => {
  user = await newUser('envelope');
});

test('NUL in a body string, a nested field, a path segment or a query value: 400 validation_error naming the field', async () => {
  const body = expectEnvelope(await raw('POST', '/v1/routers', { headers: json(user), body: JSON.stringify({ name: 'a\u0000b' }) }), 400, 'validation_error');
  assert.deepEqual(
    body.details?.map((d) => d.path),
    ['name'],
  );
  assert.match(body.details![0]!.message, NUL);
  assert.match(body.message, /^name: must not contain the NUL character/);

  const nested = expectEnvelope(
    await raw('POST', '/v1/providers', { headers: json(user), body: JSON.stringify({ slug: 'p', url: 'ws://127.0.0.1:9', headers: { 'X-A': 'v\u0000' } }) }),
    400,
    'validation_error',
  );
  assert.deepEqual(
    nested.details?.map((d) => d.path),
    ['headers.X-A'],
  );

  const segment = expectEnvelope(await raw('GET', '/v1/routers/a%00b', { headers: bearer(user) }), 400, 'validation_error');
  assert.deepEqual(
    segment.details?.map((d) => d.path),
    ['id'],
  );
  // routerInstanceId in the query picks the router before any schema runs: it reached PostgreSQL.
  const query = expectEnvelope(await raw('GET', '/v1/providers?routerInstanceId=r%00', { headers: bearer(user) }), 400, 'validation_error');
  assert.deepEqual(
    query.details?.map((d) => d.path),
    ['routerInstanceId'],
  );
  expectEnvelope(await raw('GET', '/v1/no-such%00thing', { headers: bearer(user) }), 400, 'validation_error');
  const signUp = expectEnvelope(
    await raw('POST', '/api/sign-up', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'N\u0000', email: 'nul@example.test', password: 'long enough password' }),
    }),
    400,
    'validation_error',
  );
  assert.deepEqual(
    signUp.details?.map((d) => d.path),
    ['name'],
  );
  assert.equal(expectOk(await call('GET', '/v1/routers', { auth: { token: user.token } })).total, 1, 'nothing was created');
});

test('every /v1 route and method: NUL in the path or query is a 400 envelope, NUL in a body never a 500', async () => {
  const victim = await newUser('envelope-loop'); // routes without a body schema still act: a user of its own
  const withParams = (pattern: string, value: string) => pattern.replace(/\[[^\]]+\]/g, value);
  const bodyWithNul = Object.fromEntries(
    ['name', 'label', 'slug', 'url', 'email', 'role', 'token', 'confirm', 'description', 'routerInstanceId', 'profile', 'defaultProfile', 'password'].map(
      (f) => [f, `x\u0000${f}`],
    ),
  );
  let checked = 0;
  for (const [pattern, methods] of [...Object.entries(CONTROL_PLANE_ROUTES), ['/v1/no-such-endpoint', ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']] as const]) {
    for (const method of methods) {
      const inPath = pattern.includes('[') ? withParams(pattern, 'a%00b') : pattern;
      const res = await raw(method, `${inPath}?routerInstanceId=r%00&page=1%00`, { headers: bearer(victim) });
      const expectIn = isBilling(pattern) ? expectBillingEnvelope : expectEnvelope;
      expectIn(res, 400, 'validation_error');
      checked++;
      if (method === 'GET' || method === 'DELETE') continue;
      const inBody = await raw(method, withParams(pattern, 'no-such-id'), { headers: json(victim), body: JSON.stringify(bodyWithNul) });
      assert.notEqual(inBody.status, 500, `${method} ${pattern}: ${inBody.text.slice(0, 300)}`);
      if (inBody.json?.ok === true) continue; // an endpoint that takes no body did its work
      const error = isBilling(pattern)
        ? expectBillingEnvelope(inBody, inBody.status, inBody.json?.error)
        : expectEnvelope(inBody, inBody.status, inBody.json?.error?.code);
      if (inBody.status === 400) assert.equal(error.code, isBilling(pattern) ? 'bad_request' : 'validation_error', `${method} ${pattern}`);
      checked++;
    }
  }
  assert.ok(checked > 60, `only ${checked} requests`);
});

test('a path that is not valid percent-encoding: 400 in the envelope, not a text/plain 500', async () => {
  for (const path of ['/v1/routers/%E0%A4%A', '/v1/providers/%zz', '/v1/webhooks/100%', '/v1/%C0%AF']) {
    const error = expectEnvelope(await raw('GET', path, { headers: bearer(user) }), 400, 'validation_error');
    assert.match(error.message, /not valid percent-encoding/);
  }
});

test('a method the route does not serve: 405 in the envelope with Allow listing what it serves', async () => {
  for (const method of ['TRACE', 'PUT', 'DELETE', 'PROPFIND', 'PATCH']) {
    const res = await raw(method, '/v1/routers', { headers: bearer(user) });
    const error = expectEnvelope(res, 405, 'method_not_allowed');
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS, POST', method);
    assert.equal(error.message, `${method} is not served at /v1/routers; it takes GET, POST`);
  }
  const get = await raw('GET', '/v1/routers/active', { headers: bearer(user) });
  expectEnvelope(get, 405, 'method_not_allowed');
  assert.equal(get.headers.allow, 'OPTIONS, POST');
  const trace = await raw('TRACE', `/v1/routers/${user.routerId}`, { headers: bearer(user) });
  expectEnvelope(trace, 405, 'method_not_allowed');
  assert.equal(trace.headers.allow, 'DELETE, GET, HEAD, OPTIONS, PATCH');
  const head = await raw('HEAD', '/v1/workspaces/current/leave', { headers: bearer(user) });
  assert.deepEqual([head.status, head.headers.allow, head.text], [405, 'OPTIONS, POST', '']);
  // What the route serves still works, OPTIONS included.
  const options = await raw('OPTIONS', '/v1/routers', { headers: bearer(user) });
  assert.deepEqual([options.status, options.headers.allow], [204, 'GET, HEAD, OPTIONS, POST']);
  expectOk(await call('GET', '/v1/routers', { auth: { token: user.token } }));
  // An unknown path with a method Next cannot carry is still the catch-all's not_found.
  expectEnvelope(await raw('TRACE', '/v1/no-such-endpoint', { headers: bearer(user) }), 404, 'not_found');
});

test('trailing slash, dot segments and repeated slashes: the resource, or not_found in the envelope', async () => {
  for (const path of ['/v1/routers/', '/v1/./routers', '/v1//routers', '/v1/routers/x/..', '/v1/%2e/routers/']) {
    const res = await raw('GET', path, { headers: bearer(user) });
    assert.equal(res.status, 200, `${path}: ${res.status} ${res.text.slice(0, 200)}`);
    assert.equal(res.json.ok, true, path);
    assert.equal(res.json.data.items[0].id, user.routerId, path);
  }
  for (const path of ['/v1/routers/..', '/v1/routers/%2e%2e', '/v1', '/v1/', '/v1/nothing/', '/v1/routers/a/b/c']) {
    const error = expectEnvelope(await raw('GET', path, { headers: bearer(user) }), 404, 'not_found');
    assert.match(error.message, /^no endpoint GET \/v1/, path);
  }
  const patched = await raw('PATCH', `/v1/routers/${user.routerId}/`, { headers: json(user), body: JSON.stringify({ description: 'via a trailing slash' }) });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.json.data.description, 'via a trailing slash');
});

// Bounded by the test's timeout: a server that waited for the announced body would never answer.
test('bodies over 1 MB: 413 from Content-Length before reading, and a chunked body cut off while it is still being sent', { timeout: 60_000 }, async () => {
  const declared = await new Promise<RawRes>((resolve) => {
    const req = http.request(
      {
        host: web.hostname,
        port: web.port,
        method: 'POST',
        path: '/v1/routers',
        agent: false,
        headers: { ...json(user), 'content-length': String(MAX_BODY_BYTES + 1) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, text, json: parse(text) });
        });
      },
    );
    req.on('error', () => {}); // the server may close before the (never sent) body
    req.write('{"name":"'); // a few bytes of the announced million: the answer must not wait for the rest
  });
  expectEnvelope(declared, 413, 'payload_too_large');

  // No Content-Length: chunks keep coming until the answer arrives; the body never ends by itself.
  // The server answers and closes while chunks are still in flight, so a write can fail (EPIPE or
  // a reset) before the client has read the answer that is already on its way; then the client
  // has lost that answer with its socket, and the request is made again (at most 3 times).
  const streamOnce = () =>
    new Promise<(RawRes & { sentWhenAnswered: number }) | 'lost'>((resolve, reject) => {
      let sent = 0;
      const req = http.request(
        { host: web.hostname, port: web.port, method: 'POST', path: '/v1/routers', agent: false, headers: { ...json(user), 'transfer-encoding': 'chunked' } },
        (res) => {
          const sentWhenAnswered = sent;
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode!, headers: res.headers, text, json: parse(text), sentWhenAnswered });
          });
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (req.destroyed && !['EPIPE', 'ECONNRESET'].includes(error.code ?? '')) return;
        if (['EPIPE', 'ECONNRESET'].includes(error.code ?? '') && sent > MAX_BODY_BYTES) resolve('lost');
        else reject(error);
      });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!req.destroyed) {
          if (sent > 64 * MAX_BODY_BYTES) return reject(new Error(`no answer after sending ${sent} bytes`));
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      req.write('{"name":"');
      pump();
    });
  let streamed: (RawRes & { sentWhenAnswered: number }) | 'lost' = 'lost';
  for (let attempt = 0; attempt < 3 && streamed === 'lost'; attempt++) streamed = await streamOnce();
  assert.ok(streamed !== 'lost', 'the answer was lost to a reset three times');
  expectEnvelope(streamed, 413, 'payload_too_large');
  assert.ok(streamed.sentWhenAnswered > MAX_BODY_BYTES, 'answered only once the cap was passed');
  assert.equal(expectOk(await call('GET', '/v1/routers', { auth: { token: user.token } })).total, 1, 'nothing was created');
});

test('a body that is not application/json on an endpoint taking JSON: 415 unsupported_media_type, nothing changes', async () => {
  const payload = JSON.stringify({ name: 'Not created' });
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
    const headers: Record<string, string> = { ...bearer(user), ...(type ? { 'content-type': type } : {}) };
    const error = expectEnvelope(await raw('POST', '/v1/routers', { headers, body: payload }), 415, 'unsupported_media_type');
    assert.match(error.message, /Content-Type: application\/json/);
  }
  assert.equal(expectOk(await call('GET', '/v1/routers', { auth: { token: user.token } })).total, 1);
  const ok = await raw('POST', '/v1/routers', {
    headers: { ...bearer(user), 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ name: 'With charset' }),
  });
  assert.equal(ok.status, 201, ok.text);
  // Endpoints that take no body still ignore whatever is sent.
  expectEnvelope(
    await raw('POST', '/v1/sessions/no-such-session/close', { headers: { ...bearer(user), 'content-type': 'text/plain' }, body: 'anything' }),
    404,
    'not_found',
  );
  expectEnvelope(await raw('POST', '/v1/routers', { headers: json(user), body: '{"name": ' }), 400, 'validation_error');
  expectEnvelope(
    await raw('POST', '/v1/routers', { headers: json(user), body: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]) }),
    400,
    'validation_error',
  );
});

test('validation errors say what is wrong ("expected a string, got number"), "required" only when absent, with details per field', async () => {
  const auth = { token: user.token };
  const patched = await call('PATCH', `/v1/routers/${user.routerId}`, {
    auth,
    body: { name: 5, queueMaxSize: 1500.5, cooldownFailureThreshold: '0.5', bogus: 1 },
  });
  expectError(patched, 400, 'validation_error');
  assert.deepEqual(patched.body.error.details, [
    { path: 'name', message: 'expected a string, got number' },
    { path: 'queueMaxSize', message: 'must be a whole number, got 1500.5' },
    { path: 'cooldownFailureThreshold', message: 'expected a number, got string' },
    { path: 'bogus', message: 'not a field of this request' },
  ]);
  assert.equal(
    patched.body.error.message,
    'name: expected a string, got number; queueMaxSize: must be a whole number, got 1500.5; cooldownFailureThreshold: expected a number, got string; bogus: not a field of this request',
  );

  assert.deepEqual((await call('POST', '/v1/routers', { auth, body: {} })).body.error.details, [{ path: 'name', message: 'required' }]);
  assert.deepEqual((await call('POST', '/v1/routers', { auth, body: [1] })).body.error.details, [{ path: 'body', message: 'expected an object, got array' }]);
  assert.deepEqual((await call('GET', '/v1/webhooks?pageSize=1.5', { auth })).body.error.details, [
    { path: 'pageSize', message: 'expected an integer, got 1.5' },
  ]);

  const provider = await call('POST', '/v1/providers', { auth, body: { slug: 'p', url: 'ws://127.0.0.1:9', headers: { 'X-A': 1 }, maxConcurrent: 1500.5 } });
  expectError(provider, 400, 'validation_error');
  assert.deepEqual(provider.body.error.details, [
    { path: 'headers.X-A', message: 'header values must be strings, got number' },
    { path: 'maxConcurrent', message: 'use a whole number, got 1500.5' },
  ]);
  // Checks past the schema carry details too.
  const profile = await call('PATCH', `/v1/routers/${user.routerId}/agent-settings`, { auth, body: { defaultProfile: 'no-such-profile' } });
  expectError(profile, 400, 'validation_error');
  assert.deepEqual(profile.body.error.details, [{ path: 'defaultProfile', message: 'no profile "no-such-profile" in this workspace' }]);
});

test('webhook URLs: a userinfo is refused at create and PATCH; every query value is masked, also for members and older rows', async () => {
  const owner = await newUser('hook-owner');
  const member = await newUser('hook-member');
  await addMember(owner.workspaceId, member.userId, 'member');
  const auth = { token: owner.token };
  for (const url of ['https://user:pass@hooks.example.test/in', 'https://only-a-token@hooks.example.test/in']) {
    const refused = await call('POST', '/v1/webhooks', { auth, body: { label: 'Basic', url } });
    expectError(refused, 400, 'validation_error');
    assert.equal(refused.body.error.details[0].path, 'url');
    assert.match(refused.body.error.details[0].message, /must not contain a user name or password/);
  }
  const created = expectOk(
    await call('POST', '/v1/webhooks', { auth, body: { label: 'Signed', url: 'https://hooks.example.test/in?sig=SIG-SECRET&team=OPS-TEAM&VALUELESS-TOKEN' } }),
    201,
  );
  assert.equal(created.url, 'https://hooks.example.test/in?sig=***&team=***&***');
  const patch = await call('PATCH', `/v1/webhooks/${created.id}`, { auth, body: { url: 'https://a:b@hooks.example.test/in' } });
  expectError(patch, 400, 'validation_error');
  assert.equal(patch.body.error.details[0].path, 'url');

  // A row written under the earlier rule, which masked only names like token or secret.
  const { db } = await import('../../lib/db');
  const { encryptText } = await import('../../lib/crypto/encryption');
  const legacy = await db.webhook.create({
    data: {
      workspaceId: owner.workspaceId,
      label: 'Legacy',
      urlEncrypted: encryptText('https://old.example.test/h?sig=OLD-SIG&token=t'),
      urlDisplay: 'https://old.example.test/h?sig=OLD-SIG&token=***',
      events: [],
    },
  });
  const seen = expectOk(await call('GET', '/v1/webhooks', { auth: { token: member.token }, headers: { 'x-workspace-id': owner.workspaceId } }));
  const text = JSON.stringify(seen);
  for (const secret of ['SIG-SECRET', 'OLD-SIG', 'VALUELESS-TOKEN', 'OPS-TEAM']) assert.ok(!text.includes(secret), `${secret} shown to a member`);
  assert.equal(seen.items.find((w: { id: string }) => w.id === legacy.id).url, 'https://old.example.test/h?sig=***&token=***');
});

test('the data API and connect on the web port say to call the proxy, at its address', async () => {
  const proxy = (process.env.PUBLIC_PROXY_URL ?? process.env.TEST_PROXY_URL ?? '').replace(/^ws/, 'http').replace(/\/+$/, '');
  for (const endpoint of ['screenshot', 'content', 'scrape']) {
    const res = await raw('POST', `/v1/${endpoint}`, {
      headers: { 'content-type': 'application/json', authorization: 'Bearer rkey_whatever' },
      body: JSON.stringify({ url: 'https://example.com' }),
    });
    const error = expectEnvelope(res, 404, 'not_found');
    assert.equal(error.message, `the data API is served by the proxy, not on this port: POST ${proxy}/v1/${endpoint} with a router key`);
  }
  const connect = expectEnvelope(await raw('GET', '/v1/connect'), 404, 'not_found');
  assert.match(connect.message, new RegExp(`${proxy.replace(/^http/, 'ws').replace(/[.:/]/g, '\\$&')}/v1/connect`));
  // The address named is the proxy's: it answers there (401 without a router key).
  const there = await fetchFromOwnAddress(`${proxy}/v1/screenshot`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"url":"https://example.com"}',
  });
  assert.equal(there.status, 401);
});
