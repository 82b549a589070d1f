// /v1/connect when every provider failed to dial (docs/gateway.md, "Failover and cooldown"): with
// the queue on the connection waits, as one that found everything full does, for a slot freed or a
// cooldown ended, under one deadline from when it first waited; with the queue off, or when every
// provider cools down past that deadline, it is refused at once. `gateway serve` runs as the
// operator runs it, with a real Chromium behind the providers that answer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { eventually } from '../../e2e/support/connect';
import { refusedUrl } from '../../e2e/support/upstreams';
import { freePort } from '../../scripts/lib/ports';
import { closed, connect, opened, serve, tcpProvider, type PendingConnect, type Served } from './serve-testing';

const ALL_UNAVAILABLE = 'All providers unavailable';
let chrome: Chromium;
const cleanup: (() => Promise<void>)[] = [];

before(async () => {
  chrome = await launchChromium();
});

after(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  await chrome?.stop();
});

async function gateway(yaml: string): Promise<Served> {
  const gw = await serve(yaml);
  cleanup.push(gw.stop);
  return gw;
}

const settings = (cooldown: string, queue: string, connectionTimeout = 3000) => `
gateway: { defaultStrategy: priority-chain, cooldown: ${cooldown}, connectionTimeout: ${connectionTimeout}, shutdownDrainMs: 500 }
queue: ${queue}
`;

/** Resolves once the connect waits in the queue; fails at once, with its answer, if it got one instead. */
async function queued(gw: Served, pending: PendingConnect, count = 1): Promise<void> {
  await eventually(
    async () => {
      const answer = pending.settled();
      if (answer)
        assert.fail(
          `answered after ${Date.now() - pending.startedAt} ms instead of waiting: ${answer.opened ? `101 from ${answer.provider}` : `${answer.status} ${JSON.stringify(answer.body)}`}`,
        );
      return (await gw.status()).queued === count ? true : undefined;
    },
    10_000,
    'the connect to wait in the queue',
  );
}

const attempts = (gw: Served, provider: string) => gw.lines().filter((l) => l.msg === 'provider attempt failed' && l.provider === provider).length;

/** The log reaches us through a pipe, possibly after the answer did: waits for `count` attempt lines. */
const attempted = (gw: Served, provider: string, count: number) =>
  eventually(() => (attempts(gw, provider) >= count ? true : undefined), 2_000, `${count} attempt line(s) for ${provider}`);

test('queue on: a connect whose only free provider refused waits, and is served when a slot frees on another', async () => {
  const gw = await gateway(`${settings('{ defaultMs: 60000, minRequestVolume: 1 }', '{ maxSize: 5, timeoutMs: 8000 }')}
providers:
  down: { url: "${await refusedUrl()}", priority: 1 }
  chrome: { url: "${chrome.wsUrl}", priority: 2, limits: { maxConcurrent: 1 } }
`);
  const holder = await opened(`${gw.connect}?provider=chrome`);
  const pending = connect(gw.connect);
  await queued(gw, pending);
  await attempted(gw, 'down', 1);
  assert.equal(attempts(gw, 'down'), 1);
  await eventually(() => gw.lines().some((l) => l.msg === 'every provider failed: back to the queue'), 2_000, 'the back-to-the-queue line');
  await closed(holder);
  const answer = await pending.outcome;
  assert.ok(answer.opened, JSON.stringify(answer));
  assert.equal(answer.provider, 'chrome');
  assert.ok(Date.now() - pending.startedAt < 8000);
  await closed(answer.socket);
});

test('queue off: the same failure is a 503 at once, its attempt logged', async () => {
  const gw = await gateway(`${settings('{ defaultMs: 60000, minRequestVolume: 1 }', '{ maxSize: 0, timeoutMs: 8000 }')}
providers:
  down: { url: "${await refusedUrl()}", priority: 1 }
  chrome: { url: "${chrome.wsUrl}", priority: 2, limits: { maxConcurrent: 1 } }
`);
  const holder = await opened(`${gw.connect}?provider=chrome`);
  const pending = connect(gw.connect);
  assert.deepEqual(await pending.outcome, { opened: false, status: 503, body: { error: ALL_UNAVAILABLE } });
  assert.ok(Date.now() - pending.startedAt < 1000, `answered after ${Date.now() - pending.startedAt} ms`);
  await attempted(gw, 'down', 1);
  assert.equal(attempts(gw, 'down'), 1);
  assert.ok(!gw.lines().some((l) => l.msg === 'every provider failed: back to the queue' || l.msg === 'queue timeout'));
  await closed(holder);
});

test('a queued connect whose provider then fails waits again until its first deadline, then gets the queue timeout', async () => {
  const gate = await tcpProvider(chrome.wsUrl);
  cleanup.push(gate.stop);
  // A failure takes the connection timeout (1 s): a fresh deadline after it would end ~1 s later.
  const gw = await gateway(`${settings('{ defaultMs: 60000, minRequestVolume: 1 }', '{ maxSize: 5, timeoutMs: 2500 }', 1000)}
providers:
  gate: { url: "${gate.url}", priority: 1, limits: { maxConcurrent: 1 } }
  chrome: { url: "${chrome.wsUrl}", priority: 2, limits: { maxConcurrent: 1 } }
`);
  const holders = [await opened(`${gw.connect}?provider=chrome`), await opened(`${gw.connect}?provider=gate`)];
  gate.mode = 'hang';
  const pending = connect(gw.connect);
  await queued(gw, pending);
  // gate's slot frees: the waiter is given gate, whose dial hangs until the connection timeout.
  await closed(holders.pop()!);
  await eventually(() => (gate.hung > 0 ? true : undefined), 5_000, 'the waiter to dial gate');
  await attempted(gw, 'gate', 1);
  await queued(gw, pending);
  const answer = await pending.outcome;
  const elapsed = Date.now() - pending.startedAt;
  assert.deepEqual(answer, { opened: false, status: 503, body: { error: ALL_UNAVAILABLE } });
  assert.ok(
    elapsed >= 2400 && elapsed < 3400,
    `answered after ${elapsed} ms; the queue timeout is 2500 ms from when it first queued (a fresh one from the failure would end after 3500 ms)`,
  );
  const timeout = await eventually(() => gw.lines().find((l) => l.msg === 'queue timeout'), 5_000, 'the queue timeout log line');
  assert.ok((timeout.waitMs as number) >= 2400 && (timeout.waitMs as number) < 3400, JSON.stringify(timeout));
  await closed(holders.pop()!);
});

test('a single failing provider: waited for when its cooldown ends in time (served once it listens), refused at once when it cools past the deadline', async () => {
  // Nothing listens there yet: its dials are refused.
  const late = `ws://127.0.0.1:${await freePort()}${new URL(chrome.wsUrl).pathname}`;
  const gw = await gateway(`${settings('{ defaultMs: 1000, minRequestVolume: 1 }', '{ maxSize: 5, timeoutMs: 10000 }')}
providers:
  late: { url: "${late}" }
`);
  const pending = connect(gw.connect);
  await queued(gw, pending);
  assert.ok((await gw.status()).providers[0]!.cooldownUntil, 'in cooldown');
  // Its browser starts listening while it cools down: the cooldown's end routes the waiter there.
  const started = await tcpProvider(chrome.wsUrl, Number(new URL(late).port));
  cleanup.push(started.stop);
  const answer = await pending.outcome;
  assert.ok(answer.opened, JSON.stringify(answer));
  assert.equal(answer.provider, 'late');
  assert.ok(Date.now() - pending.startedAt >= 900, 'served at the end of the cooldown');
  await closed(answer.socket);

  const long = await gateway(`${settings('{ defaultMs: 60000, minRequestVolume: 1 }', '{ maxSize: 5, timeoutMs: 10000 }')}
providers:
  down: { url: "${await refusedUrl()}" }
`);
  const refused = connect(long.connect);
  assert.deepEqual(await refused.outcome, { opened: false, status: 503, body: { error: ALL_UNAVAILABLE } });
  assert.ok(Date.now() - refused.startedAt < 1000, `answered after ${Date.now() - refused.startedAt} ms`);
  assert.ok(!long.lines().some((l) => l.msg === 'queue timeout'));
});

test('cooldown off: a failing provider is dialled minRequestVolume times, then the connect is refused, never a loop of dials', async () => {
  const gw = await gateway(`${settings('{ defaultMs: 0, minRequestVolume: 3 }', '{ maxSize: 5, timeoutMs: 5000 }')}
providers:
  down: { url: "${await refusedUrl()}" }
`);
  const pending = connect(gw.connect);
  assert.deepEqual(await pending.outcome, { opened: false, status: 503, body: { error: ALL_UNAVAILABLE } });
  assert.ok(Date.now() - pending.startedAt < 1000, `answered after ${Date.now() - pending.startedAt} ms`);
  await attempted(gw, 'down', 3);
  assert.equal(attempts(gw, 'down'), 3);
});
