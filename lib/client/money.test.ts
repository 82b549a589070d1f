import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCents, formatMillicents, formatMillicentsExact, millicentsTitle, parseDollars } from './money';

test('cents show as dollars with cents, grouped, with a real minus sign', () => {
  assert.equal(formatCents(2000), '$20.00');
  assert.equal(formatCents(0), '$0.00');
  assert.equal(formatCents(250_000_000), '$2,500,000.00');
  assert.equal(formatCents(-150), '−$1.50');
  assert.equal(formatCents(91, { plus: true }), '+$0.91');
  // The API's rates are cents as numbers and may hold fractions of a cent.
  assert.equal(formatCents(0.05), '$0.0005');
  assert.equal(formatCents(0.7), '$0.007');
});

test('millicents show in whole cents, rounded half away from zero; a sub-cent amount never reads as $0.00', () => {
  assert.equal(formatMillicents(2_000_000), '$20.00');
  assert.equal(formatMillicents(1_996_432), '$19.96');
  assert.equal(formatMillicents(123_456_789_000), '$1,234,567.89');
  assert.equal(formatMillicents(1_500), '$0.02');
  assert.equal(formatMillicents(-1_500), '−$0.02');
  assert.equal(formatMillicents(-1_234), '−$0.01');
  assert.equal(formatMillicents(50), '<$0.01');
  assert.equal(formatMillicents(-50), '−<$0.01');
  assert.equal(formatMillicents(700_000, { plus: true }), '+$7.00');
  assert.equal(formatMillicents(0), '$0.00');
});

test('the exact amount, for a tooltip and an axis', () => {
  assert.equal(millicentsTitle(1_996_432), '$19.96432 (1,996,432 millicents)');
  assert.equal(millicentsTitle(-1_234), '−$0.01234 (−1,234 millicents)');
  assert.equal(millicentsTitle(1), '$0.00001 (1 millicent)');
  assert.equal(formatMillicentsExact(50), '$0.0005');
  assert.equal(formatMillicentsExact(2_000_000), '$20.00');
});

test('typed dollar amounts become whole cents', () => {
  assert.equal(parseDollars('20'), 2000);
  assert.equal(parseDollars('$1,250.5'), 125_050);
  assert.equal(parseDollars(' 5.05 '), 505);
  assert.equal(parseDollars('20.'), 2000);
  for (const bad of ['', 'abc', '1.234', '-5', '1e3']) assert.equal(parseDollars(bad), null, bad);
});
