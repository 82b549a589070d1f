// GET /v1/openapi.json from the running web server: public, JSON, cacheable, naming this stack's
// web process and proxy; and real answers of both checked against what it says, strictly (every
// field typed, none the document does not name), errors included.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { OpenApiDocument } from '../../lib/openapi/document';
import { documentValidator, type DocumentValidator } from '../../lib/openapi/testing';
import { call, newUser, WEB, type Res, type TestUser } from '../support/api';
import { routerKey } from '../support/connect';
import { PROXY_HTTP } from '../support/data-api';

let doc: OpenApiDocument;
let validator: DocumentValidator;
let user: TestUser;

before(async () => {
  const res = await fetch(`${WEB}/v1/openapi.json`);
  doc = (await res.json()) as OpenApiDocument;
  validator = documentValidator(doc);
  user = await newUser('openapi');
});

/** `res` is what the document says `method path` answers with its status. */
function answers(method: string, path: string, res: Res) {
  assert.equal(
    validator.response(method, path, res.status, res.body),
    null,
    `${method.toUpperCase()} ${path} → ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`,
  );
}

test("GET /v1/openapi.json: public, JSON, cacheable, with this install's web and proxy addresses", async () => {
  const res = await fetch(`${WEB}/v1/openapi.json`, { headers: { authorization: 'Bearer not-a-token' } });
  assert.equal(res.status, 200, 'no credential is read, a bad one included');
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.match(res.headers.get('cache-control') ?? '', /public, max-age=300/);
  const body = (await res.json()) as OpenApiDocument;
  assert.equal(body.openapi, '3.1.0');
  assert.equal((body.servers as { url: string }[])[0]!.url, WEB.replace(/\/$/, ''));
  for (const [path, method] of [
    ['/v1/routers', 'get'],
    ['/v1/routers', 'post'],
    ['/v1/routers/{id}', 'patch'],
    ['/v1/providers/{slug}', 'delete'],
    ['/v1/openapi.json', 'get'],
  ] as const) {
    assert.ok(body.paths[path]?.[method], `${method.toUpperCase()} ${path}`);
  }
  const screenshot = body.paths['/v1/screenshot']!.post!;
  assert.equal(new URL((screenshot.servers as { url: string }[])[0]!.url).port, new URL(PROXY_HTTP).port, 'the data API on the proxy');
  assert.deepEqual(Object.keys(body.components.securitySchemes).sort(), ['accountToken', 'dashboardSession', 'routerKey', 'routerKeyQuery']);
  const head = await fetch(`${WEB}/v1/openapi.json`, { method: 'HEAD' });
  assert.equal(head.status, 200);
});

test('control-plane answers are what the document says, successes and errors', async () => {
  const auth = { token: user.token };
  const get = async (path: string, documented = path) => answers('get', documented, await call('GET', path, { auth }));
  for (const path of [
    '/v1/me',
    '/v1/workspaces',
    '/v1/workspaces/current/members',
    '/v1/invitations',
    '/v1/access-tokens',
    '/v1/routers',
    '/v1/api-keys',
    '/v1/providers',
    '/v1/sessions',
    '/v1/profiles',
    '/v1/webhooks',
    '/v1/replays',
    '/v1/inspections',
    '/v1/billing/summary',
    '/v1/credits/balance',
    '/v1/billing/usage?days=3',
    '/v1/billing/ledger',
    '/v1/billing/transactions',
    '/v1/mcp-links/current',
  ]) {
    await get(path, path.split('?')[0]);
  }
  for (const path of ['/v1/routers/{id}', '/v1/routers/{id}/settings', '/v1/routers/{id}/agent-settings']) await get(path.replace('{id}', user.routerId), path);

  const created = await call('POST', '/v1/routers', { auth, body: { name: 'OpenAPI check' } });
  answers('post', '/v1/routers', created);
  const profile = await call('POST', '/v1/profiles', {
    auth,
    body: {
      slug: 'openapi-check',
      name: 'OpenAPI check',
      captured: { version: 1, cookies: [{ name: 'sid', value: 'x', domain: 'example.com' }], storage: { 'https://example.com': { localStorage: { a: '1' } } } },
    },
  });
  answers('post', '/v1/profiles', profile);
  answers('get', '/v1/profiles/{slug}/versions', await call('GET', '/v1/profiles/openapi-check/versions', { auth }));
  answers('post', '/v1/mcp-links/rotate', await call('POST', '/v1/mcp-links/rotate', { auth, body: {}, headers: { 'x-router-id': user.routerId } }));
  answers('delete', '/v1/routers/{id}', await call('DELETE', `/v1/routers/${created.body.data.id}`, { auth }));

  answers('get', '/v1/me', await call('GET', '/v1/me'));
  answers('get', '/v1/routers/{id}', await call('GET', '/v1/routers/no-such-router', { auth }));
  answers('post', '/v1/routers', await call('POST', '/v1/routers', { auth, body: { name: 7 } }));
  answers('get', '/v1/billing/usage', await call('GET', '/v1/billing/usage?days=500', { auth }));
});

test("the proxy's answers are what the document says: status, and a data-API refusal", async () => {
  const key = await routerKey(user.workspaceId, user.routerId);
  const status = await call('GET', '/v1/status', { base: PROXY_HTTP, headers: { authorization: `Bearer ${key}` } });
  answers('get', '/v1/status', status);
  const refused = await call('POST', '/v1/screenshot', {
    base: PROXY_HTTP,
    headers: { authorization: `Bearer ${key}` },
    body: { url: 'not a url', quality: 500 },
  });
  assert.equal(refused.status, 400);
  answers('post', '/v1/screenshot', refused);
});
