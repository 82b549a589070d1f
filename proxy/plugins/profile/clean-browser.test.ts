// cleanBrowser on a real Chromium shared by the next session: the storage a profile's session left
// is cleared through a blank page the clean-up makes for itself, even when the client's last tab
// closes just as the clean-up would have used it (it then failed with "Session with given id not
// found" and left the origin's localStorage to the next session: seen in a gateway test).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchChromium, type Chromium } from '../../../e2e/support/chromium';
import { eventually } from '../../../e2e/support/connect';
import { startTestSite, type TestSite } from '../../../e2e/support/test-site';
import { CdpSocket } from '../../../lib/cdp/socket';
import { cleanBrowser } from './browser-state';
import type { Cdp } from './cdp';

let browser: Chromium;
let site: TestSite;
before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

const pages = async (conn: CdpSocket) => (await conn.send('Target.getTargets')).targetInfos.filter((t) => t.type === 'page').map((t) => t.targetId);

/** localStorage's `key` at the site's origin, read in a tab opened for it. */
async function stored(conn: CdpSocket, set?: string): Promise<unknown> {
  const { targetId } = await conn.send('Target.createTarget', { url: `${site.url}/basic` });
  const { sessionId } = await conn.send('Target.attachToTarget', { targetId, flatten: true });
  const expression = set === undefined ? "localStorage.getItem('key')" : `localStorage.setItem('key', ${JSON.stringify(set)})`;
  const { result } = await conn.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
  if (set === undefined) await conn.send('Target.closeTarget', { targetId });
  return result.value ?? null;
}

test("the clean-up clears through a blank page of its own, not the client's tab closing as the session ends", async () => {
  const conn = await CdpSocket.open(browser.wsUrl, { handshakeTimeoutMs: 30_000, commandTimeoutMs: 30_000 });
  try {
    await stored(conn, 'left by the last session');
    const clientTabs = await pages(conn);
    // The client's tabs close at the moment the clean-up would reach them.
    const cdp: Cdp = {
      async send(method, params = {}, sessionId) {
        const target = (params as { targetId?: string }).targetId;
        if (method === 'Target.attachToTarget' && target && clientTabs.includes(target)) await conn.send('Target.closeTarget', { targetId: target });
        return conn.send(method, params, sessionId);
      },
      onEvent: () => () => {},
    };
    await cleanBrowser(cdp, [site.url]);
    assert.equal(await stored(conn), null, 'the next session finds the origin empty');
    // Target.closeTarget answers before the page is gone: its pages (the clean-up's, the read's) go soon after.
    await eventually(async () => (await pages(conn)).every((id) => clientTabs.includes(id)), 5_000, 'no page of the clean-up left');
  } finally {
    conn.close();
  }
});
