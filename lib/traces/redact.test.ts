import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extraRedactNames, redactHeaders, redactUrl } from './redact';

test('credential headers are redacted whatever their case: the list and names that say token, secret, password, signature or API key', () => {
  assert.deepEqual(
    redactHeaders({ Authorization: 'Bearer x', cookie: 'a=b', 'SET-COOKIE': 's=1', 'Proxy-Authorization': 'Basic y', Accept: '*/*', 'X-Count': 3 }),
    { Authorization: '[redacted]', cookie: '[redacted]', 'SET-COOKIE': '[redacted]', 'Proxy-Authorization': '[redacted]', Accept: '*/*', 'X-Count': '3' },
  );
  const sent = {
    'X-Api-Key': 'k1',
    'X-Auth-Token': 't1',
    'X-Amz-Security-Token': 's1',
    'X-Goog-Api-Key': 'g1',
    'Api-Key': 'a1',
    'X-My-Service-Token': 'm1',
    'X-Client-Secret': 'c1',
    'X-Tokenizer': 'keep',
    'X-Request-Id': 'r1',
  };
  assert.deepEqual(redactHeaders(sent), {
    'X-Api-Key': '[redacted]',
    'X-Auth-Token': '[redacted]',
    'X-Amz-Security-Token': '[redacted]',
    'X-Goog-Api-Key': '[redacted]',
    'Api-Key': '[redacted]',
    'X-My-Service-Token': '[redacted]',
    'X-Client-Secret': '[redacted]',
    'X-Tokenizer': 'keep',
    'X-Request-Id': 'r1',
  });
  assert.deepEqual(redactHeaders(undefined), {});
  assert.deepEqual(redactHeaders('nope'), {});
});

test('credential query parameters and fragment parameters lose their values; the rest of the URL is kept byte for byte', () => {
  assert.equal(redactUrl('https://a.test/p?q=shoes&token=abc&API_KEY=k&page=2'), 'https://a.test/p?q=shoes&token=[redacted]&API_KEY=[redacted]&page=2');
  assert.equal(redactUrl('https://a.test/cb?code=xyz&state=s1#frag'), 'https://a.test/cb?code=[redacted]&state=s1#frag');
  assert.equal(
    redactUrl('https://a.test/cb#access_token=t&token_type=bearer&expires_in=3600'),
    'https://a.test/cb#access_token=[redacted]&token_type=bearer&expires_in=3600',
  );
  assert.equal(
    redactUrl('https://b.s3.test/o?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=ff&X-Amz-Expires=60'),
    'https://b.s3.test/o?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Expires=60',
  );
  assert.equal(redactUrl('https://a.test/s?sig=1&%73ig=2&keyword=x'), 'https://a.test/s?sig=[redacted]&%73ig=[redacted]&keyword=x', 'names compared decoded');
  for (const same of ['https://a.test/plain', 'https://a.test/?flag', 'https://a.test/#section', 'data:text/plain,token=1', 'not a url'])
    assert.equal(redactUrl(same), same);
});

test("a router's extra names redact headers and query and fragment parameters whatever their case; the defaults still apply, other names are kept", () => {
  const extra = extraRedactNames(['X-Site-Secret-Id', 'acct', 'Session-Ref']);
  assert.deepEqual(
    redactHeaders(
      {
        'x-site-secret-id': 'abc',
        'X-SITE-SECRET-ID': 'abc',
        ACCT: '1',
        'session-ref': 's',
        Authorization: 'Bearer x',
        'X-Site-Secret': 's2',
        'X-Site-Id': 'keep',
        Accept: '*/*',
      },
      extra,
    ),
    {
      'x-site-secret-id': '[redacted]',
      'X-SITE-SECRET-ID': '[redacted]',
      ACCT: '[redacted]',
      'session-ref': '[redacted]',
      Authorization: '[redacted]',
      'X-Site-Secret': '[redacted]',
      'X-Site-Id': 'keep',
      Accept: '*/*',
    },
  );
  assert.equal(
    redactUrl('https://a.test/p?acct=123&keep=1&ACCT=4&token=t&account=5', extra),
    'https://a.test/p?acct=[redacted]&keep=1&ACCT=[redacted]&token=[redacted]&account=5',
  );
  assert.equal(
    redactUrl('https://a.test/cb?keep=1#Acct=9&x-site-secret-id=z&state=s', extra),
    'https://a.test/cb?keep=1#Acct=[redacted]&x-site-secret-id=[redacted]&state=s',
  );
  assert.equal(redactUrl('https://a.test/p?%61cct=1', extra), 'https://a.test/p?%61cct=[redacted]', 'names compared decoded');
  // Without extra names, the same names are kept (the defaults do not know them).
  assert.equal(redactUrl('https://a.test/p?acct=123&keep=1'), 'https://a.test/p?acct=123&keep=1');
  assert.deepEqual(redactHeaders({ 'X-Site-Secret-Id': 'abc' }), { 'X-Site-Secret-Id': 'abc' });
  assert.deepEqual(redactHeaders({ 'X-Site-Secret-Id': 'abc' }, extraRedactNames([])), { 'X-Site-Secret-Id': 'abc' });
});
