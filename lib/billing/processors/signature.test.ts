// Stripe's webhook signature format, as both processors verify it.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { parseEvent, signatureHeader, verifySignature } from './signature';
import { WebhookSignatureError } from './types';
import { creditTakenBack } from '../webhook';

const SECRET = 'whsec_unit';
const BODY = JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed', data: { object: { id: 'cs_1' } } }, null, 2);

test('a header made as Stripe documents it verifies: t=<seconds>,v1=HMAC-SHA256(secret, "t.body")', () => {
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', SECRET).update(`${t}.${BODY}`).digest('hex');
  verifySignature(BODY, `t=${t},v1=${v1}`, SECRET);
  verifySignature(BODY, `t=${t},v1=${'0'.repeat(64)},v1=${v1},v0=abc`, SECRET); // any v1 may match; other schemes are ignored
  assert.equal(signatureHeader(SECRET, BODY, t), `t=${t},v1=${v1}`);
});

test('missing, malformed, wrong, altered and stale signatures are refused', () => {
  const now = Date.now();
  const bad = (body: string, header: string | null) => assert.throws(() => verifySignature(body, header, SECRET, now), WebhookSignatureError);
  bad(BODY, null);
  bad(BODY, '');
  bad(BODY, 'v1=abc');
  bad(BODY, `t=${Math.floor(now / 1000)}`);
  bad(BODY, signatureHeader('whsec_other', BODY));
  bad(`${BODY} `, signatureHeader(SECRET, BODY));
  bad(BODY, signatureHeader(SECRET, BODY, Math.floor(now / 1000) - 301));
  bad(BODY, signatureHeader(SECRET, BODY, Math.floor(now / 1000) + 301));
  verifySignature(BODY, signatureHeader(SECRET, BODY, Math.floor(now / 1000) - 299), SECRET, now);
});

test('only an event envelope parses', () => {
  assert.equal(parseEvent(BODY).id, 'evt_1');
  for (const body of ['not json', '[]', '{"id":"evt"}', '{"id":1,"type":"x","data":{"object":{}}}', '{"id":"e","type":"x","data":{"object":null}}']) {
    assert.throws(() => parseEvent(body), WebhookSignatureError, body);
  }
});

test('the credit taken back is proportional to the money refunded, and all of it on a full refund', () => {
  assert.equal(creditTakenBack(0, 500, 546), 0);
  assert.equal(creditTakenBack(100, 500, 546), 91);
  assert.equal(creditTakenBack(545, 500, 546), 499);
  assert.equal(creditTakenBack(546, 500, 546), 500);
  assert.equal(creditTakenBack(600, 500, 546), 500);
  // Monotone, never above the credit: the deltas of successive refunds add up to the credit.
  let previous = 0;
  for (let refunded = 0; refunded <= 2_091; refunded++) {
    const back = creditTakenBack(refunded, 2_000, 2_091);
    assert.ok(back >= previous && back <= 2_000);
    previous = back;
  }
});
