// A proxy process of the test's own: graceful drain on stop, and crash settlement on start.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { eventually, expectOpened, isOpened, open, routerKey } from '../support/connect';
import { addProvider } from '../support/providers';
import { freePort } from '../../scripts/lib/ports';
import { startProxy } from '../../proxy/server';
import { seedSession } from '../support/seed-sessions';

let browser: Chromium;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.stop();
});

test('stop: new connects get 503, running sessions drain, the rest are closed and marked', async () => {
  const user = await newUser('drain');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const port = await freePort();
  const proxy = await startProxy({ port, host: '127.0.0.1', proxyInstanceId: `drain-${port}`, shutdownDrainMs: 800, webhooks: false, jobs: false });
  const url = `ws://127.0.0.1:${port}/v1/connect?token=${key}`;
  const leaver = await expectOpened(url);
  const stayer = await expectOpened(url);
  const stopping = proxy.stop();
  const refused = await open(url);
  assert.ok(!isOpened(refused) && refused.status === 503, 'new connects are refused while draining');
  leaver.ws.close();
  await leaver.closed;
  const { code } = await stayer.closed;
  assert.equal(code, 1001);
  await stopping;
  const { db } = await import('../../lib/db');
  const rows = await db.sessionLog.findMany({ where: { workspaceId: user.workspaceId } });
  assert.deepEqual(rows.map((r) => r.state).sort(), ['closed', 'errored']);
  assert.match(rows.find((r) => r.state === 'errored')!.errorReason!, /shut down/);
});

test('a restarted proxy settles the sessions its crashed run left active', async () => {
  const user = await newUser('crash');
  const { db } = await import('../../lib/db');
  const port = await freePort();
  const instance = `crash-${port}`;
  const orphan = await seedSession(user.workspaceId, user.routerId, { proxyInstanceId: instance, startedAt: new Date(Date.now() - 5_000) });
  const untouched = await seedSession(user.workspaceId, user.routerId, { proxyInstanceId: 'another-proxy' });
  const proxy = await startProxy({ port, host: '127.0.0.1', proxyInstanceId: instance, shutdownDrainMs: 100, webhooks: false, jobs: false });
  await proxy.stop();
  const settled = await db.sessionLog.findUniqueOrThrow({ where: { id: orphan.id } });
  assert.equal(settled.state, 'errored');
  assert.ok(settled.durationMs >= 5_000);
  assert.equal((await db.sessionLog.findUniqueOrThrow({ where: { id: untouched.id } })).state, 'active');
});

test('the pipeline lane carries a Playwright session end to end', async () => {
  const { chromium } = await import('playwright-core');
  const user = await newUser('pipe');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const port = await freePort();
  const proxy = await startProxy({
    port,
    host: '127.0.0.1',
    proxyInstanceId: `pipe-${port}`,
    shutdownDrainMs: 100,
    lane: 'pipeline',
    webhooks: false,
    jobs: false,
  });
  try {
    const url = `ws://127.0.0.1:${port}/v1/connect?token=${key}`;
    const raw = await expectOpened(url);
    assert.match(raw.sessionId, /^ses_/);
    assert.equal(raw.provider, 'a');
    raw.ws.close();
    const pw = await chromium.connectOverCDP(url);
    const page = await (pw.contexts()[0] ?? (await pw.newContext())).newPage();
    await page.setContent('<p>pipeline</p>');
    assert.equal(await page.textContent('p'), 'pipeline');
    await pw.close();
    const { db } = await import('../../lib/db');
    const rows = await eventually(async () => {
      const all = await db.sessionLog.findMany({ where: { workspaceId: user.workspaceId } });
      return all.length === 2 && all.every((r) => r.state !== 'active') ? all : null;
    });
    const busiest = rows.sort((a, b) => b.messageCount - a.messageCount)[0]!;
    assert.ok(busiest.messageCount > 4 && Number(busiest.bytesIn) > 0 && Number(busiest.bytesOut) > 0);
  } finally {
    await proxy.stop();
  }
});
