// Traces in the dashboard, end to end: a user takes the connect URL from the Connect tab with
// "Trace this session" and "Record this session", runs a real Playwright session through the proxy
// against a page that makes good, failing and cut-off requests, logs at four levels and throws; the
// trace says it is being written while the session runs, then opens: the waterfall and its filters,
// a request's headers (credentials shown as not stored), the console with its errors filter, the
// navigations, the three downloads, the recording's player moved by clicks on the trace; the trace
// from the Traces page and from the session's panel; its deletion; and the notice of a raw CDP
// client's trace that saw nothing because the client enabled nothing.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { expect, test, type Download, type Page } from '@playwright/test';
import { chromium as playwright } from 'playwright-core';
import WebSocket from 'ws';
import { launchChromium } from '../support/chromium';
import { startTestSite } from '../support/test-site';
import { signUp, snap, uniqueEmail, webUrl } from './helpers';
import { dashboardApi, fundWorkspace, openRouter, openTab } from './router-helpers';

/** After the client leaves, the capture closes the trace and the recording's MP4 is made: seconds. */
const SETTLE_TIMEOUT_MS = 60_000;

async function downloaded(page: Page, name: string): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return { download, bytes: await readFile((await download.path())!) };
}

test('trace a session from the Connect tab, then read its requests, console and navigations beside its recording, download and delete it', async ({ page }) => {
  test.setTimeout(300_000);
  const [chromium, site] = await Promise.all([launchChromium(), startTestSite()]);
  try {
    await signUp(page, { name: 'Tess Traces', email: uniqueEmail('traces') }, null);
    const me = await dashboardApi<{ activeWorkspaceId: string }>(page, 'GET', '/v1/me');
    await fundWorkspace(page, me.activeWorkspaceId, 'traces spec');

    await page.goto('/traces');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Traces');
    await expect(page.getByText('No traces yet')).toBeVisible();

    // The Connect tab's URL with "Trace this session" (and "Record this session", for the shared timeline).
    const routerId = await openRouter(page);
    await dashboardApi(page, 'POST', '/v1/providers', { routerId, body: { slug: 'chrome', name: 'Test Chrome', url: chromium.wsUrl } });
    await openTab(page, 'Connect');
    await page.getByRole('button', { name: 'Fill in the newest key' }).click();
    await expect(page.getByText('Your router key is filled in')).toBeVisible();
    const options = page.getByRole('region', { name: 'Connection options' });
    await expect(options).toContainText('Network requests, console output and navigations');
    await expect(options).toContainText('Billed $0.05 per 1,000 events');
    await options.getByRole('switch', { name: /Trace this session/ }).click();
    await options.getByRole('switch', { name: /Record this session/ }).click();
    const urlBlock = page.getByRole('figure', { name: 'Connect URL' });
    await expect(urlBlock).toContainText('observability=true');
    const connectUrl = ((await urlBlock.locator('pre').textContent()) ?? '').trim();
    expect(connectUrl).toMatch(/^ws:\/\/.+\/v1\/connect\?token=rkey_\S+&session_record=true&observability=true$/);
    await expect(page.getByRole('region', { name: 'Snippets' })).toContainText('observability=true');
    await snap(page, 'trace-connect-option');

    // A real Playwright script on the traced page; it stays connected for a moment.
    const client = await playwright.connectOverCDP(connectUrl);
    const context = client.contexts()[0] ?? (await client.newContext());
    const tab = await context.newPage();
    await tab.goto(`${site.url}/traced`);
    await expect.poll(() => tab.title(), { timeout: 20_000 }).toBe('traced-done');

    // The session's row is written in the background (the client's 101 does not wait for it).
    let sessionId = '';
    await expect
      .poll(async () => {
        const active = await dashboardApi<{ items: Array<{ id: string }> }>(page, 'GET', '/v1/sessions?state=active');
        sessionId = active.items[0]?.id ?? '';
        return active.items.length;
      })
      .toBe(1);
    const session = await dashboardApi<{ hasReplay: boolean }>(page, 'GET', `/v1/sessions/${sessionId}`);
    expect(session.hasReplay).toBe(true);

    // While the session runs the trace is listed, being written, and its page says so.
    await page.goto('/traces');
    const table = page.getByRole('table', { name: 'Traces' });
    const row = table.getByRole('row', { name: new RegExp(sessionId.slice(0, 12)) });
    await expect(row.getByTestId('trace-status')).toContainText('Being written');
    await row.getByRole('link', { name: `Trace of session ${sessionId}` }).click();
    await page.waitForURL(/\/traces\/[^/?]+$/);
    const traceId = page.url().split('/').at(-1)!;
    await expect(page.getByText('The trace is being written; it opens when the session ends.')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Downloads' })).toHaveCount(0);
    await snap(page, 'trace-being-written');

    // The script ends; the page turns into the trace by itself.
    await client.close();
    await expect(page.getByTestId('trace-status')).toContainText('Complete', { timeout: SETTLE_TIMEOUT_MS });
    const events = page.getByRole('region', { name: 'Trace events' });
    await expect(events).toBeVisible();
    const trace = await dashboardApi<{ eventCount: number; complete: boolean; sessionLogId: string }>(page, 'GET', `/v1/inspections/${traceId}`, { routerId });
    expect(trace.sessionLogId).toBe(sessionId);
    expect(trace.eventCount).toBeGreaterThan(10);
    await expect(page.getByTestId('trace-event-count')).toHaveText(trace.eventCount.toLocaleString('en'));

    // The waterfall: every request of the page, then the failing ones.
    const requests = events.getByRole('table', { name: 'Requests' });
    const requestRow = (path: string | RegExp) => requests.getByRole('row', { name: path });
    await expect(requestRow(/\/traced/).first()).toBeVisible();
    await expect(requestRow(/\/api\/ok\?n=1/)).toBeVisible();
    await expect(requestRow(/\/api\/ok\?n=2/)).toBeVisible();
    // At phone width names and statuses stay readable: type and size give way, the waterfall narrows.
    await page.setViewportSize({ width: 390, height: 844 });
    const okCells = requestRow(/\/api\/ok\?n=1/).getByRole('cell');
    await expect(okCells.nth(0)).toContainText('/api/ok?n=1');
    await expect(okCells.nth(1)).toHaveText('200');
    expect((await okCells.nth(0).boundingBox())!.width, 'the name column keeps room for a name').toBeGreaterThan(150);
    await expect(okCells, 'name, status, time and the waterfall: type and size hidden').toHaveCount(4);
    await snap(page, 'trace-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
    const count = events.getByTestId('request-count');
    const total = Number(/of (\d+) requests/.exec((await count.textContent()) ?? '')?.[1]);
    expect(total).toBeGreaterThanOrEqual(5);
    // (The browser's own /favicon.ico, a 404 asked for once or twice, is among them.)
    await events.getByRole('checkbox', { name: /Failed only/ }).check();
    await expect(count).toHaveText(new RegExp(`^[2-4] of ${total} requests$`));
    await expect(requestRow(/\/api\/ok/)).toHaveCount(0);
    const failing = requestRow(/\/api\/fail/);
    await expect(failing).toContainText('500');
    const reset = requestRow(/\/api\/reset/);
    await expect(reset).toContainText('(failed)');
    await expect(reset).toContainText(/net::ERR_\w+/);
    await snap(page, 'trace-failed-only');

    // The failing request's details: general, timing and both sets of headers.
    await failing.click();
    const detail = page.getByRole('complementary', { name: 'Request details' });
    await expect(detail).toContainText(`${site.url}/api/fail`);
    await expect(detail.getByRole('button', { name: 'Copy URL' })).toBeVisible();
    await expect(detail.getByRole('region', { name: 'General' })).toContainText('500');
    await expect(detail.getByRole('region', { name: 'General' })).toContainText('127.0.0.1');
    await expect(detail.getByRole('region', { name: 'Response headers' })).toContainText('application/json');
    await expect(detail.getByRole('region', { name: 'Request headers' })).toBeVisible();
    await snap(page, 'trace-request-detail');
    await detail.getByRole('tab', { name: 'Timing' }).click();
    await expect(detail.getByTestId('request-timing')).toContainText('Total');
    await expect(detail.getByTestId('request-timing')).toContainText('Waiting (TTFB)');
    await detail.getByRole('tab', { name: 'Headers' }).click();
    await reset.click();
    await expect(detail.getByRole('region', { name: 'General' })).toContainText(/net::ERR_\w+/);
    await expect(detail.getByRole('region', { name: 'Response headers' })).toContainText('No response: the request failed.');

    // The credentials of /api/ok?n=1 were never stored: shown as [redacted], with the reason on hover.
    await events.getByRole('checkbox', { name: /Failed only/ }).uncheck();
    await events.getByRole('searchbox', { name: 'Search requests' }).fill('n=1');
    await expect(count).toHaveText(`1 of ${total} requests`);
    await requestRow(/\/api\/ok\?n=1/).click();
    const sent = detail.getByRole('region', { name: 'Request headers' });
    const authorization = sent.locator('[data-header="authorization"] dd span');
    await expect(authorization).toHaveText('[redacted]');
    await expect(authorization).toHaveAttribute('title', 'not stored');
    await expect(sent.locator('[data-header="x-trace-test"] dd')).toHaveText('visible');
    await sent.scrollIntoViewIfNeeded();
    await snap(page, 'trace-redacted-headers');
    await events.getByRole('searchbox', { name: 'Search requests' }).fill('');
    await events.getByRole('radio', { name: 'Document' }).click();
    await expect(requestRow(/\/traced/).first()).toBeVisible();
    await expect(requestRow(/\/api\//)).toHaveCount(0);
    await events.getByRole('radio', { name: 'All' }).click();

    // Console: four levels and the uncaught exception; the errors filter keeps the two errors.
    await events.getByRole('tab', { name: /Console/ }).click();
    const consoleList = events.getByRole('list', { name: 'Console messages' });
    await expect(consoleList).toContainText('hello trace 42');
    await expect(consoleList).toContainText('an info line');
    await expect(consoleList).toContainText('a warning line');
    await events.getByRole('button', { name: 'Errors only' }).click();
    await expect(consoleList).toContainText('boom happened');
    await expect(consoleList).toContainText('uncaught trace error');
    await expect(consoleList).not.toContainText('hello trace');
    await expect(consoleList).not.toContainText('a warning line');
    await expect(consoleList.getByRole('listitem').filter({ hasText: 'uncaught trace error' })).toContainText('exception');
    await expect(consoleList.getByRole('listitem').filter({ hasText: 'boom happened' })).toContainText('traced');
    await snap(page, 'trace-console-errors');
    await events.getByRole('searchbox', { name: 'Search console' }).fill('boom');
    await expect(consoleList.getByRole('listitem')).toHaveCount(1);

    // Navigations: the tab, its load of /traced and the same-document #step-2.
    await events.getByRole('tab', { name: /Navigations/ }).click();
    // (The provider's browser had a blank tab of its own: the client attached to it too.)
    const tracedTab = events.getByRole('region', { name: /^Tab \d+$/ }).filter({ hasText: '#step-2' });
    await expect(tracedTab).toHaveCount(1);
    await expect(tracedTab.getByRole('list', { name: /^Navigations of tab \d+$/ })).toContainText(`${site.url}/traced`);
    const hashNavigation = tracedTab.getByRole('listitem').filter({ hasText: '#step-2' });
    await expect(hashNavigation).toContainText('same document');
    await snap(page, 'trace-navigations');

    // The three files: JSON, gzipped JSON, HAR.
    const json = await downloaded(page, 'Download JSON');
    const all = JSON.parse(json.bytes.toString('utf8')) as Array<{ kind: string; seq: number }>;
    expect(all).toHaveLength(trace.eventCount);
    expect(json.download.suggestedFilename()).toMatch(/\.json$/);
    const gz = await downloaded(page, 'Download gzip');
    expect(JSON.parse(gunzipSync(gz.bytes).toString('utf8'))).toHaveLength(trace.eventCount);
    const har = await downloaded(page, 'Download HAR');
    expect(har.download.suggestedFilename()).toMatch(/\.har$/);
    const harLog = JSON.parse(har.bytes.toString('utf8')) as { log: { entries: Array<{ request: { url: string }; response: { status: number } }> } };
    expect(harLog.log.entries.length).toBeGreaterThanOrEqual(5);
    expect(harLog.log.entries.find((e) => e.request.url.endsWith('/api/fail'))?.response.status).toBe(500);

    // The recording shares the axis: once its video is made, a click on the trace moves the player there.
    const recordings = await dashboardApi<{ replays: Array<{ id: string }> }>(page, 'GET', `/v1/replays?session_id=${sessionId}`);
    const recordingId = recordings.replays[0]!.id;
    await expect
      .poll(async () => (await dashboardApi<{ mp4Status: string | null }>(page, 'GET', `/v1/replays/${recordingId}`)).mp4Status, { timeout: SETTLE_TIMEOUT_MS })
      .toBe('ready');
    await page.reload();
    const player = page.getByRole('region', { name: 'Recording' });
    const video = player.getByTestId('recording-video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const at = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);
    // (One line over the waterfall; on the navigations, one per tab.)
    const playhead = events.getByTestId('playhead').first();
    await events
      .getByRole('table', { name: 'Requests' })
      .getByRole('row', { name: /\/api\/fail/ })
      .click();
    await expect.poll(at).toBeGreaterThan(0);
    const failAt = await at();
    // The player's position is the red line on the waterfall, at that request's start.
    await expect(playhead).toBeVisible();
    const failLine = Number(await playhead.getAttribute('data-t'));
    await events.getByRole('tab', { name: /Navigations/ }).click();
    await hashNavigation.getByRole('button').click();
    await expect.poll(at).toBeGreaterThan(failAt);
    const hashAt = await at();
    await expect.poll(async () => Number(await playhead.getAttribute('data-t'))).toBeGreaterThan(failLine);
    // The console line came between the two.
    await events.getByRole('tab', { name: /Console/ }).click();
    await events.getByRole('list', { name: 'Console messages' }).getByRole('listitem').filter({ hasText: 'hello trace 42' }).click();
    await expect.poll(at).toBeLessThan(hashAt);
    expect(await at()).toBeGreaterThan(failAt);
    await snap(page, 'trace-with-recording');
    // The frame player follows the same clicks.
    await player.getByRole('radio', { name: 'Frames by tab' }).click();
    const position = player.getByTestId('frame-player').getByLabel('Position');
    await expect(position).toBeVisible();
    await events.getByRole('tab', { name: /Network/ }).click();
    await events
      .getByRole('table', { name: 'Requests' })
      .getByRole('row', { name: /\/api\/fail/ })
      .click();
    await expect.poll(async () => Math.abs(Number(await position.inputValue()) - failAt * 1000)).toBeLessThanOrEqual(2);
    await expect.poll(async () => Math.abs(Number(await playhead.getAttribute('data-t')) - failLine)).toBeLessThanOrEqual(2);

    // The trace links to its recording, and the recording back to its trace.
    await page.getByRole('link', { name: 'Open recording' }).click();
    await page.waitForURL(`**/recordings/${recordingId}`);
    await page.getByRole('link', { name: 'Open trace' }).click();
    await page.waitForURL(new RegExp(`/traces/${traceId}(\\?|$)`));

    // From the session's panel: its trace's figures and the way to it.
    await page.goto(`/sessions?session=${sessionId}`);
    const drawer = page.getByRole('dialog', { name: 'Session', exact: true });
    const traceSection = drawer.getByTestId('session-trace');
    await expect(traceSection.getByTestId('trace-status')).toContainText('Complete');
    await expect(traceSection).toContainText(`Events${trace.eventCount.toLocaleString('en')}`);
    await expect(traceSection).toContainText(/Failed requests[2-4]Console/);
    await expect(traceSection).toContainText(/Console errors[2-9]/);
    await traceSection.scrollIntoViewIfNeeded();
    await snap(page, 'trace-session-drawer');
    await traceSection.getByRole('link', { name: 'Open trace' }).click();
    await page.waitForURL(`**/traces/${traceId}`);
    await expect(page.getByRole('region', { name: 'Trace figures' })).toContainText(sessionId);

    // The list: the complete trace with its figures.
    await page.goto('/traces');
    await expect(row.getByTestId('trace-status')).toContainText('Complete');
    await expect(row).toContainText(trace.eventCount.toLocaleString('en'));
    await expect(page.getByTestId('traces-count')).toHaveText('1 trace in the last 60 days');
    await snap(page, 'traces');

    // Delete (the owner may), after a confirmation; the list is empty again and the trace is gone.
    await row.getByRole('link', { name: `Trace of session ${sessionId}` }).click();
    await page.waitForURL(`**/traces/${traceId}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this trace?' }).getByRole('button', { name: 'Delete trace' }).click();
    await page.waitForURL(/\/traces$/);
    await expect(page.getByText('No traces yet')).toBeVisible();
    expect((await page.request.get(`${webUrl}/v1/inspections/${traceId}`, { headers: { 'X-Router-Id': routerId } })).status()).toBe(404);
    expect((await dashboardApi<{ hasReplay: boolean }>(page, 'GET', `/v1/sessions/${sessionId}`)).hasReplay).toBe(false);

    // A raw CDP client that enables nothing: its trace says what it could not see, as a notice.
    const raw = new WebSocket(connectUrl.replace('&session_record=true', ''));
    await new Promise((resolve, reject) => {
      raw.once('open', resolve);
      raw.once('error', reject);
    });
    const answered = new Promise((resolve) => raw.once('message', resolve));
    raw.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
    await answered;
    raw.close();
    let quietId = '';
    await expect
      .poll(
        async () => {
          const list = await dashboardApi<{ inspections: Array<{ id: string; complete: boolean }> }>(page, 'GET', '/v1/inspections', { routerId });
          quietId = list.inspections[0]?.complete ? list.inspections[0].id : '';
          return quietId;
        },
        { timeout: SETTLE_TIMEOUT_MS },
      )
      .not.toBe('');
    await page.goto(`/traces/${quietId}`);
    await expect(page.getByTestId('trace-note')).toContainText('attached to no page');
    await expect(page.getByRole('region', { name: 'Trace events' })).toContainText('No requests in this trace');
    await snap(page, 'trace-not-enabled-note');
  } finally {
    await Promise.all([chromium.stop(), site.close()]);
  }
});
