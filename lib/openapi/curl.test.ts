import assert from 'node:assert/strict';
import { test } from 'node:test';
import { curlAuth, curlCommand } from './curl';

test('a bearer call with a body and a path parameter', () => {
  assert.equal(
    curlCommand({ method: 'patch', path: '/v1/routers/{id}', server: 'http://localhost:3000', auth: 'account', body: { name: "Ada's router" } }),
    [
      'curl -X PATCH "http://localhost:3000/v1/routers/<id>"',
      '  -H "Authorization: Bearer $ACCOUNT_TOKEN"',
      '  -H "Content-Type: application/json"',
      `  -d '{"name":"Ada'\\''s router"}'`,
    ].join(' \\\n'),
  );
});

test('a data-API call answering an image, and the connect handshake', () => {
  const screenshot = curlCommand({
    method: 'post',
    path: '/v1/screenshot',
    server: 'http://localhost:9500',
    auth: 'routerKey',
    body: { url: 'https://example.com' },
    answerType: 'image/png',
  });
  assert.match(screenshot, /Bearer \$ROUTER_KEY/);
  assert.match(screenshot, /-o answer\.png$/);
  const connect = curlCommand({ method: 'get', path: '/v1/connect', server: 'http://localhost:9500', auth: 'routerKey', websocket: true });
  assert.match(connect, /^curl -i -N "http:\/\/localhost:9500\/v1\/connect"/);
  assert.match(connect, /Upgrade: websocket/);
});

test('a dashboard-session call sends the cookie and, when it changes something, the origin', () => {
  const command = curlCommand({ method: 'post', path: '/v1/access-tokens', server: 'http://localhost:3000', auth: 'cookie', body: { label: 'CI' } });
  assert.match(command, /Cookie: next-auth\.session-token=\$SESSION_COOKIE/);
  assert.match(command, /Origin: http:\/\/localhost:3000/);
  assert.equal(curlAuth([{ accountToken: [] }, { dashboardSession: [] }]), 'account');
  assert.equal(curlAuth([{ dashboardSession: [] }]), 'cookie');
  assert.equal(curlAuth([{ routerKey: [] }, { routerKeyQuery: [] }]), 'routerKey');
  assert.equal(curlAuth([]), 'none');
});

test('required query values become placeholders', () => {
  assert.equal(curlCommand({ method: 'get', path: '/v1/x', server: 'http://h', auth: 'none', requiredQuery: ['q'] }), 'curl "http://h/v1/x?q=<q>"');
});
