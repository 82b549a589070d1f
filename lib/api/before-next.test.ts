import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalPath, judge } from './before-next';

test('paths are made canonical as URL parsers do: dot segments, repeated and trailing slashes', () => {
  assert.equal(canonicalPath('/v1/routers/'), '/v1/routers');
  assert.equal(canonicalPath('/v1/./routers'), '/v1/routers');
  assert.equal(canonicalPath('/v1//routers///x'), '/v1/routers/x');
  assert.equal(canonicalPath('/v1/routers/..'), '/v1');
  assert.equal(canonicalPath('/v1/routers/%2E%2e/me'), '/v1/me');
  assert.equal(canonicalPath('/v1/routers/.%2e/..'), '/');
  assert.equal(canonicalPath('/v1\\routers'), '/v1/routers');
  assert.equal(canonicalPath('/v1/routers/%E0%A4%A'), '/v1/routers/%E0%A4%A');
});

test('a non-canonical /v1 path is rewritten for Next, keeping the query; a canonical one is left alone', () => {
  assert.deepEqual(judge('GET', '/v1/routers/?page=2', null), { kind: 'pass', url: '/v1/routers?page=2' });
  assert.deepEqual(judge('GET', '/v1/routers/..', null), { kind: 'pass', url: '/v1' });
  assert.deepEqual(judge('GET', '/v1/routers', null), { kind: 'pass', url: undefined });
  assert.deepEqual(judge('GET', '/overview/', null), { kind: 'pass' });
  assert.deepEqual(judge('GET', '/v1/../overview', null), { kind: 'pass' });
  assert.deepEqual(judge('GET', '/v10/x', null), { kind: 'pass' });
});

test('bad percent-encoding in a /v1 path is a 400 validation_error', () => {
  const verdict = judge('GET', '/v1/routers/%E0%A4%A', null);
  assert.equal(verdict.kind, 'answer');
  if (verdict.kind !== 'answer') return;
  assert.deepEqual([verdict.error.status, verdict.error.code], [400, 'validation_error']);
  assert.match(verdict.error.message, /not valid percent-encoding/);
  assert.equal(judge('GET', '/v1/routers/%zz', null).kind, 'answer');
  assert.equal(judge('GET', '/v1/routers/100%', null).kind, 'answer');
});

test('a method the route does not serve is 405 with Allow; TRACE and WebDAV methods included', () => {
  for (const method of ['PUT', 'TRACE', 'PROPFIND', 'DELETE']) {
    const verdict = judge(method, '/v1/routers', null);
    assert.equal(verdict.kind, 'answer', method);
    if (verdict.kind !== 'answer') continue;
    assert.deepEqual([verdict.error.status, verdict.error.code], [405, 'method_not_allowed']);
    assert.deepEqual(verdict.headers, { Allow: 'GET, HEAD, OPTIONS, POST' });
    assert.equal(verdict.error.message, `${method} is not served at /v1/routers; it takes GET, POST`);
  }
  const active = judge('GET', '/v1/routers/active', null);
  assert.ok(active.kind === 'answer' && active.headers?.Allow === 'OPTIONS, POST');
  for (const method of ['GET', 'HEAD', 'OPTIONS', 'POST']) assert.equal(judge(method, '/v1/routers', null).kind, 'pass', method);
  assert.equal(judge('PATCH', '/v1/routers/abc/', null).kind, 'pass');
});

test('an unknown /v1 path goes to the catch-all, unless Next cannot carry the method; outside /v1 TRACE is a 501', () => {
  assert.equal(judge('DELETE', '/v1/nothing-here', null).kind, 'pass');
  const trace = judge('TRACE', '/v1/nothing-here', null);
  assert.ok(trace.kind === 'answer' && trace.error.code === 'not_found');
  const screenshot = judge('TRACE', '/v1/screenshot', 'dash.example.com:3000');
  assert.ok(screenshot.kind === 'answer' && /served by the proxy/.test(screenshot.error.message));
  assert.deepEqual(judge('TRACE', '/overview', null), { kind: 'not-implemented' });
});

test('/api follows the same rules: bad percent-encoding is a 400 in the envelope, a method its route does not serve a 405 with Allow', () => {
  const bad = judge('GET', '/api/sessions/%E0%A4%A/live', null);
  assert.equal(bad.kind, 'answer');
  assert.equal(bad.kind === 'answer' && bad.error.code, 'validation_error');
  for (const method of ['DELETE', 'TRACE', 'PROPFIND']) {
    const verdict = judge(method, '/api/health', null);
    assert.deepEqual(
      verdict.kind === 'answer' && [verdict.error.status, verdict.error.code, verdict.headers],
      [405, 'method_not_allowed', { Allow: 'GET, HEAD, OPTIONS' }],
      method,
    );
  }
  assert.deepEqual(judge('POST', '/api/auth/callback/credentials', null), { kind: 'pass', url: undefined });
  assert.equal(judge('PUT', '/api/auth/session', null).kind, 'answer');
  assert.equal(judge('POST', '/api/nothing-here', null).kind, 'pass', 'Next answers its own 404');
  const unknown = judge('TRACE', '/api/nothing-here', null);
  assert.deepEqual(unknown.kind === 'answer' && [unknown.error.status, unknown.error.code], [404, 'not_found']);
});

test('a page whose path is not valid percent-encoding gets a 400 page; a valid one passes', () => {
  assert.deepEqual(judge('GET', '/sessions/%E0%A4%A', null), { kind: 'bad-page-path' });
  assert.deepEqual(judge('GET', '/%zz', null), { kind: 'bad-page-path' });
  assert.deepEqual(judge('GET', '/sessions/caf%C3%A9?x=%zz', null), { kind: 'pass' });
  assert.deepEqual(judge('TRACE', '/%zz', null), { kind: 'not-implemented' });
});
