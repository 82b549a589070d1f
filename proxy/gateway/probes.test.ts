// The provider probe's schedule on a fake clock (rounds never overlap, the next one 30 s after a
// round ends, nothing after stop), and its reasons against a real closed port: the host, never
// the path, query or headers of the address.
import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { TestOutcome } from '../../lib/providers/check-provider';
import { eventually } from '../../e2e/support/connect';
import { FakeClock } from '../engine';
import type { GatewayProvider } from './config';
import { PROBE_INTERVAL_MS, ProviderProbes, scrubReason } from './probes';

const provider = (id: string, url = `ws://127.0.0.1:1/devtools/browser/${id}`, headers: Record<string, string> = {}): GatewayProvider => ({
  id,
  url,
  headers,
  limits: { maxConcurrent: null },
  priority: 1,
  weight: 1,
});

/** A probe the test answers by hand: each call waits until `answer` settles it. */
function manualProbe() {
  const calls: { url: string; settle: (outcome: TestOutcome) => void }[] = [];
  const probe = (address: { url: string }) => new Promise<TestOutcome>((settle) => calls.push({ url: address.url, settle }));
  const answer = (id: string, outcome: TestOutcome) => {
    const index = calls.findIndex((c) => c.url.endsWith(`/${id}`));
    assert.ok(index >= 0, `a probe of ${id} is waiting`);
    calls.splice(index, 1)[0]!.settle(outcome);
  };
  return { calls, probe, answer, total: () => calls.length };
}

test('probes: a round at start, the next one 30 s after it ended, never two at once, full providers skipped, nothing after stop', async () => {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const manual = manualProbe();
  const full = new Set<string>();
  const probes = new ProviderProbes([provider('a'), provider('b')], { clock, timeoutMs: 1_000, env: {}, probe: manual.probe, isFull: (id) => full.has(id) });
  assert.deepEqual(probes.of('a'), { reachable: null, checkedAt: null, latencyMs: null, reason: null });

  probes.start();
  assert.equal(manual.total(), 2);
  clock.advance(5 * PROBE_INTERVAL_MS);
  assert.equal(manual.total(), 2, 'no second round while the first is running');

  manual.answer('a', { ok: true, latencyMs: 12 });
  manual.answer('b', { ok: false, reason: 'connection refused by 127.0.0.1:1 (nothing listens there)' });
  await eventually(() => clock.pendingTimers === 1, 2_000, 'the next round to be scheduled');
  assert.deepEqual(probes.of('a'), { reachable: true, checkedAt: new Date(clock.now()).toISOString(), latencyMs: 12, reason: null });
  assert.deepEqual(probes.of('b'), {
    reachable: false,
    checkedAt: new Date(clock.now()).toISOString(),
    latencyMs: null,
    reason: 'connection refused by 127.0.0.1:1 (nothing listens there)',
  });

  full.add('a');
  clock.advance(PROBE_INTERVAL_MS - 1);
  assert.equal(manual.total(), 0);
  clock.advance(1);
  assert.deepEqual(
    manual.calls.map((c) => c.url),
    ['ws://127.0.0.1:1/devtools/browser/b'],
    'a provider at its maxConcurrent is not dialled',
  );

  // Stopped while a probe runs: its answer is dropped and no round follows.
  probes.stop();
  manual.answer('b', { ok: true, latencyMs: 3 });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(clock.pendingTimers, 0);
  assert.equal(probes.of('b').reachable, false);
  assert.equal(probes.of('a').reachable, true, 'a skipped provider keeps its last result');
});

test('probes: a closed port is unreachable with the host named, the token in its address and headers not', async () => {
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const secret = 'sk_live_0123456789abcdef';
  const dead = provider('dead', `ws://user:${secret}-pw@127.0.0.1:${port}/devtools/browser/${secret}?token=${secret}`, { Authorization: `Bearer ${secret}` });
  const probes = new ProviderProbes([dead], { clock: new FakeClock(), timeoutMs: 2_000, env: {} });
  probes.start();
  const result = await eventually(() => (probes.of('dead').reachable === false ? probes.of('dead') : undefined), 5_000, 'the probe of the closed port');
  probes.stop();
  assert.match(result.reason!, new RegExp(`connection refused by 127\\.0\\.0\\.1:${port}`));
  assert.ok(!result.reason!.includes(secret));

  // A reason passed on from a library may quote the address: what could be a secret is cut out.
  const quoted = scrubReason(`unexpected failure: cannot open ${dead.url} (Bearer ${secret})`, dead);
  assert.ok(!quoted.includes(secret), quoted);
  assert.match(quoted, /^unexpected failure: cannot open \*\*\*/);
});

test('probes: a provider dialled through HTTP_PROXY is not probed, and says why', () => {
  const probes = new ProviderProbes([provider('behind')], {
    clock: new FakeClock(),
    timeoutMs: 1_000,
    env: { HTTP_PROXY: 'http://127.0.0.1:3128' },
    probe: () => assert.fail('no probe through a proxy'),
  });
  probes.start();
  probes.stop();
  assert.equal(probes.of('behind').reachable, null);
  assert.match(probes.of('behind').reason!, /not probed: dialled through HTTP_PROXY/);
});
