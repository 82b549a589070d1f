// Webhook delivery against real local receivers: the retry schedule (1, 5 and 15 s after each
// failure), the 5 s cut of an attempt that hangs, giving up after four attempts, the events list,
// and emit() returning at once whatever the receivers do.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { GATEWAY_SCHEDULE } from '../../lib/webhooks/schedule';
import { EventSender } from './events';

type Answer = 'fail' | 'hang' | 'ok';

async function receiver(answers: Answer[]): Promise<{ url: string; times: number[]; bodies: unknown[]; close: () => Promise<void> }> {
  const times: number[] = [];
  const bodies: unknown[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      times.push(Date.now());
      bodies.push(JSON.parse(body));
      const answer = answers.shift() ?? 'ok';
      if (answer === 'hang') return; // never answers; the sender must cut it
      res.writeHead(answer === 'ok' ? 200 : 500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    times,
    bodies,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

test('retries after 1 and 5 s; a hanging attempt is cut at 5 s; emit never waits; events lists are honoured', async () => {
  assert.deepEqual(GATEWAY_SCHEDULE, { attemptTimeoutMs: 5_000, retryDelaysMs: [1_000, 5_000, 15_000] });
  const [flaky, hanging, picky] = await Promise.all([receiver(['fail', 'fail', 'ok']), receiver(['hang', 'ok']), receiver([])]);
  try {
    const sender = new EventSender('gw-test', () => [
      { url: flaky.url, events: null },
      { url: hanging.url, events: null },
      { url: picky.url, events: ['shutdown.start'] },
    ]);
    // emit never waits for a delivery: it returns nothing to wait on, before any receiver is reached.
    // (A wall-clock bound on the call failed once under a loaded machine.)
    const emitted = Date.now();
    assert.equal(sender.emit('queue.timeout', { waitMs: 1234 }), undefined);
    assert.equal(flaky.times.length + hanging.times.length, 0, 'no attempt was made before emit returned');
    await sender.settle(20_000);

    assert.equal(flaky.times.length, 3);
    const gaps = [flaky.times[1]! - flaky.times[0]!, flaky.times[2]! - flaky.times[1]!];
    assert.ok(gaps[0]! >= 1_000 && gaps[0]! < 2_000, `first retry after ${gaps[0]} ms`);
    assert.ok(gaps[1]! >= 5_000 && gaps[1]! < 6_500, `second retry after ${gaps[1]} ms`);
    assert.deepEqual(flaky.bodies[0], flaky.bodies[2], 'every attempt carries the same payload');
    const body = flaky.bodies[0] as Record<string, unknown>;
    assert.deepEqual(
      { ...body, timestamp: 'x' },
      { version: '1', timestamp: 'x', event: 'queue.timeout', status: 'firing', source: 'gw-test', data: { waitMs: 1234 } },
    );

    assert.equal(hanging.times.length, 2);
    // The cut is timed from when the attempt was sent, which the receiver sees later by however long a
    // loaded machine delays it (151 ms once): so the retry is bounded from emit, where nothing can
    // shorten it (sent after emit, cut 5 s after it was sent, retried 1 s after the cut).
    const retried = hanging.times[1]! - emitted;
    const cut = hanging.times[1]! - hanging.times[0]!;
    assert.ok(
      retried >= 6_000 && cut < 7_500,
      `a hanging attempt is cut at 5 s, then the retry 1 s later (${retried} ms after emit, ${cut} ms after the first attempt arrived)`,
    );
    assert.equal(picky.times.length, 0, 'a webhook that lists its events gets only those');
  } finally {
    await Promise.all([flaky.close(), hanging.close(), picky.close()]);
  }
});

test('a receiver that always fails is given up after the first attempt and three retries', async () => {
  const down = await receiver(['fail', 'fail', 'fail', 'fail', 'fail', 'fail']);
  try {
    const sender = new EventSender('gw-test', () => [{ url: down.url, events: null }], { attemptTimeoutMs: 5_000, retryDelaysMs: [10, 10, 10] });
    sender.emit('shutdown.start');
    await sender.settle(5_000);
    assert.equal(down.times.length, 4);
    assert.deepEqual((down.bodies[3] as { data: unknown }).data, {});
  } finally {
    await down.close();
  }
});
