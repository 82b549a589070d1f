import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCents, formatMillicents, parseDollars } from './money';

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

test('millicents are exact: a sub-cent amount never reads as $0.00', () => {
  assert.equal(formatMillicents(2_000_000), '$20.00');
  assert.equal(formatMillicents(50), '$0.0005');
  assert.equal(formatMillicents(-50), '−$0.0005');
  assert.equal(formatMillicents(-1_234), '−$0.01234');
  assert.equal(formatMillicents(700_000, { plus: true }), '+$7.00');
  assert.equal(formatMillicents(0), '$0.00');
});

test('typed dollar amounts become whole cents', () => {
  assert.equal(parseDollars('20'), 2000);
  assert.equal(parseDollars('$1,250.5'), 125_050);
  assert.equal(parseDollars(' 5.05 '), 505);
  assert.equal(parseDollars('20.'), 2000);
  for (const bad of ['', 'abc', '1.234', '-5', '1e3']) assert.equal(parseDollars(bad), null, bad);
});
