// The managed-pool detection is a pure function over the fetched /pool/status response; the
// integration test against the real pool (proxy/pool) belongs with that component.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePoolStatus, poolStatusUrl } from './detect-managed';

const status = (body: unknown, code = 200) => ({ status: code, body: typeof body === 'string' ? body : JSON.stringify(body) });
const pool = { kind: 'managed', version: 1, capacity: 8, active: 2, calibrating: false, indexedDb: true };

test('the pool protocol answer is a managed pool with its capacity', () => {
  assert.deepEqual(parsePoolStatus(status(pool)), { kind: 'managed', version: 1, capacity: 8, active: 2, calibrating: false, indexedDb: true });
  assert.equal(parsePoolStatus(status({ ...pool, calibrating: true }))?.calibrating, true);
  assert.equal(parsePoolStatus(status({ ...pool, capacity: 0, active: 0 }))?.capacity, 0, 'a pool with no room yet is still managed');
  assert.equal(parsePoolStatus(status({ ...pool, extra: 'ignored' }))?.capacity, 8, 'unknown fields are tolerated');
  const { indexedDb: _omitted, ...withoutFlag } = pool;
  assert.equal(parsePoolStatus(status(withoutFlag))?.indexedDb, false, 'a missing indexedDb flag does not make it generic');
});

test('anything else is not a managed pool', () => {
  for (const [label, response] of [
    ['404', status(pool, 404)],
    ['500', status(pool, 500)],
    ['HTML', status('<html>not found</html>')],
    ['empty', status('')],
    ['array', status([pool])],
    ['null', status('null')],
    ['other kind', status({ ...pool, kind: 'generic' })],
    ['other version', status({ ...pool, version: 2 })],
    ['version as string', status({ ...pool, version: '1' })],
    ['no capacity', status({ ...pool, capacity: undefined })],
    ['fractional capacity', status({ ...pool, capacity: 2.5 })],
    ['negative active', status({ ...pool, active: -1 })],
    ['calibrating as string', status({ ...pool, calibrating: 'false' })],
    ['browser /json/version', status({ Browser: 'HeadlessChrome/140', webSocketDebuggerUrl: 'ws://127.0.0.1:9222/devtools/browser/x' })],
  ] as const) {
    assert.equal(parsePoolStatus(response), null, label);
  }
});

test('the status address is the provider host and port over http(s)', () => {
  assert.equal(poolStatusUrl('ws://127.0.0.1:9600/v1/connect?token=x'), 'http://127.0.0.1:9600/pool/status');
  assert.equal(poolStatusUrl('wss://user:pw@pool.example.com/devtools/browser/abc'), 'https://pool.example.com/pool/status');
  assert.equal(poolStatusUrl('http://10.0.0.5:9222'), 'http://10.0.0.5:9222/pool/status');
});
