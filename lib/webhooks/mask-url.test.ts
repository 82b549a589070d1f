import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isSecretParam, maskUrl, parseWebhookUrl } from './mask-url';

test('the five names of spec 1 are masked, whatever their case; other parameters stay as written', () => {
  assert.equal(
    maskUrl('https://hooks.example.com/in?token=abc&apiKey=k1&key=k2&secret=s&password=p&team=ops'),
    'https://hooks.example.com/in?token=***&apiKey=***&key=***&secret=***&password=***&team=ops',
  );
  assert.equal(maskUrl('https://x.test/?TOKEN=a&ApiKey=b'), 'https://x.test/?TOKEN=***&ApiKey=***');
  assert.equal(maskUrl('https://x.test/h?q=a%20b&n=1+2'), 'https://x.test/h?q=a%20b&n=1+2');
});

test('spelling variants and names ending in token, secret, password or apikey are masked', () => {
  for (const name of ['api_key', 'api-key', 'access_token', 'client_secret', 'db.password', 'X-Api-Key', 'refreshToken']) assert.ok(isSecretParam(name), name);
  for (const name of ['team', 'channel', 'keyboard', 'tokens_used', 'id']) assert.ok(!isSecretParam(name), name);
  assert.equal(maskUrl('https://x.test/h?access_token=zzz&api%5Fkey=yyy'), 'https://x.test/h?access_token=***&api%5Fkey=***');
});

test('a userinfo password is masked; repeated, empty and valueless parameters are handled', () => {
  assert.equal(maskUrl('https://bot:hunter2@x.test/h'), 'https://bot:***@x.test/h');
  assert.equal(maskUrl('https://x.test/h?token=a&token=b'), 'https://x.test/h?token=***&token=***');
  assert.equal(maskUrl('https://x.test/h?token='), 'https://x.test/h?token=***');
  assert.equal(maskUrl('https://x.test/h?secret&a=1'), 'https://x.test/h?secret=***&a=1');
  assert.equal(maskUrl('http://127.0.0.1:8080/hook'), 'http://127.0.0.1:8080/hook');
  assert.equal(maskUrl('https://x.test/h?bad=%E0%A4%A&token=t'), 'https://x.test/h?bad=%E0%A4%A&token=***');
});

test('the masked form never contains the secret', () => {
  const secret = 'S3cr3t-VALUE-123';
  for (const url of [`https://x.test/?token=${secret}`, `https://x.test/?apiKey=${secret}&a=b`, `https://u:${secret}@x.test/`, `https://x.test/?a=1&password=${encodeURIComponent(secret)}`]) {
    assert.ok(!maskUrl(url).includes(secret), url);
  }
});

test('only http and https addresses are webhook URLs', () => {
  assert.ok(parseWebhookUrl('https://x.test/h'));
  assert.ok(parseWebhookUrl('http://localhost:3000/h'));
  for (const bad of ['ftp://x.test/h', 'ws://x.test/h', 'javascript:alert(1)', 'file:///etc/passwd', 'x.test/h', '', 'https//x.test']) assert.equal(parseWebhookUrl(bad), null, bad);
});
