import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayUrl, maskUrl, parseWebhookUrl } from './mask-url';

test('every query value is masked, whatever the parameter is called; names and the path stay as written', () => {
  assert.equal(
    maskUrl('https://hooks.example.com/in?token=abc&apiKey=k1&key=k2&secret=s&password=p&team=ops'),
    'https://hooks.example.com/in?token=***&apiKey=***&key=***&secret=***&password=***&team=***',
  );
  // Receivers name their secret anything: a `sig` was once shown to members in clear.
  assert.equal(maskUrl('https://x.test/hook?sig=abc123&s=x&hmac=y'), 'https://x.test/hook?sig=***&s=***&hmac=***');
  assert.equal(maskUrl('https://x.test/h?q=a%20b&n=1+2'), 'https://x.test/h?q=***&n=***');
  assert.equal(maskUrl('https://x.test/services/T000/B000'), 'https://x.test/services/T000/B000');
});

test('a userinfo is masked whole; repeated, empty and valueless parameters are handled', () => {
  assert.equal(maskUrl('https://bot:hunter2@x.test/h'), 'https://***:***@x.test/h');
  assert.equal(maskUrl('https://only-a-token@x.test/h'), 'https://***@x.test/h');
  assert.equal(maskUrl('https://x.test/h?token=a&token=b'), 'https://x.test/h?token=***&token=***');
  assert.equal(maskUrl('https://x.test/h?token='), 'https://x.test/h?token=***');
  // A parameter without a value may be the secret itself (`?<token>`).
  assert.equal(maskUrl('https://x.test/h?S3cr3tValue&a=1'), 'https://x.test/h?***&a=***');
  assert.equal(maskUrl('https://x.test/h?a=1&&b=2'), 'https://x.test/h?a=***&&b=***');
  assert.equal(maskUrl('http://127.0.0.1:8080/hook'), 'http://127.0.0.1:8080/hook');
  assert.equal(maskUrl('https://x.test/h?bad=%E0%A4%A&token=t'), 'https://x.test/h?bad=***&token=***');
});

test('masking is idempotent, so rows stored under the older, name-based rule are masked again on output', () => {
  for (const url of ['https://x.test/h?sig=abc&token=t', 'https://u:p@x.test/?flag', 'https://x.test/']) assert.equal(maskUrl(maskUrl(url)), maskUrl(url));
  assert.equal(displayUrl('https://x.test/hook?sig=shown-in-clear-before&token=***'), 'https://x.test/hook?sig=***&token=***');
  assert.equal(displayUrl('not a url'), '***');
});

test('the masked form never contains the secret', () => {
  const secret = 'S3cr3t-VALUE-123';
  for (const url of [
    `https://x.test/?token=${secret}`,
    `https://x.test/?apiKey=${secret}&a=b`,
    `https://u:${secret}@x.test/`,
    `https://${secret}@x.test/`,
    `https://x.test/?a=1&password=${encodeURIComponent(secret)}`,
    `https://x.test/?sig=${secret}`,
    `https://x.test/?${secret}`,
  ]) {
    assert.ok(!maskUrl(url).includes(secret), url);
  }
});

test('only http and https addresses are webhook URLs', () => {
  assert.ok(parseWebhookUrl('https://x.test/h'));
  assert.ok(parseWebhookUrl('http://localhost:3000/h'));
  for (const bad of ['ftp://x.test/h', 'ws://x.test/h', 'javascript:alert(1)', 'file:///etc/passwd', 'x.test/h', '', 'https//x.test'])
    assert.equal(parseWebhookUrl(bad), null, bad);
});

test('path: true masks every path segment as well, keeping the host; the root path stays', () => {
  assert.equal(maskUrl('https://hooks.example.com/services/T000/B000/XXXX?team=ops', { path: true }), 'https://hooks.example.com/***/***/***/***?team=***');
  assert.equal(maskUrl('https://hooks.example.com/', { path: true }), 'https://hooks.example.com/');
  assert.equal(maskUrl('https://hooks.example.com/in/', { path: true }), 'https://hooks.example.com/***/');
  assert.equal(maskUrl(maskUrl('https://u:p@h.test/a/b?x=1', { path: true }), { path: true }), 'https://***:***@h.test/***/***?x=***', 'safe to apply again');
});
