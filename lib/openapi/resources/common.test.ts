// A stored value narrowed to what its answer declares: a member passes, anything else is a broken row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ROUTER_STRATEGIES } from '../../routers/schemas';
import { declaredValue } from './common';

test('a stored value the answer declares passes; another names the column and the allowed values', () => {
  assert.equal(declaredValue(ROUTER_STRATEGIES, 'weighted', 'Router.strategy'), 'weighted');
  assert.throws(
    () => declaredValue(ROUTER_STRATEGIES, 'fastest', 'Router.strategy'),
    /^Error: Router.strategy holds "fastest", which is none of priority-chain, round-robin/,
  );
});
