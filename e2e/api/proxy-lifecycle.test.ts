// A proxy process of the test's own: graceful drain on stop, and crash settlement on start.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser } from '../support/api';
import { launchChromium, type LaunchedChromium } from '../support/chromium';
import { eventually, expectOpened, isOpened, open, routerKey } from '../support/connect';
import { addProvider } from '../support/providers';
import { freePort } from '../../scripts/lib/ports';
import { startProxy } from '../../proxy/server';

let browser: LaunchedChromium;
before(async () => { browser = await launchChromium(); });
after(async () => { await browser?.close(); });

test('stop: new connects get 503, running sessions drain, the rest are closed and marked', async () => {
  const user = await newUser('drain');
  await addProvider(user.workspaceId, user.routerId, { slug: 'a', url: browser.wsUrl });
  const key = await routerKey(user.workspaceId, user.routerId);
  const port = await freePort();
  const proxy = await startProxy({ port, host: '127.0.0.1', proxyInstanceId: `drain-${port}`, shutdownDrainMs: 800 });
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
  const orphan = await db.sessionLog.create({ data: { workspaceId: user.workspaceId, routerId: user.routerId, providerSlug: 'a', providerName: 'a', state: 'active', proxyInstanceId: instance, startedAt: new Date(Date.now() - 5_000) } });
  const untouched = await db.sessionLog.create({ data: { workspaceId: user.workspaceId, routerId: user.routerId, providerSlug: 'a', providerName: 'a', state: 'active', proxyInstanceId: 'another-proxy' } });
  const proxy = await startProxy({ port, host: '127.0.0.1', proxyInstanceId: instance, shutdownDrainMs: 100 });
  await proxy.stop();
  const settled = await db.sessionLog.findUniqueOrThrow({ where: { id: orphan.id } });
  assert.equal(settled.state, 'errored');
  assert.ok(settled.durationMs >= 5_000);
  assert.equal((await db.sessionLog.findUniqueOrThrow({ where: { id: untouched.id } })).state, 'active');
  void eventually;
});
