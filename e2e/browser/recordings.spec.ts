// Recordings in the dashboard, end to end: a user takes the connect URL from the Connect tab with
// "Record this session", runs a real Playwright session through the proxy against an animated
// page, watches it live from the Sessions page while it runs, ends it, and then finds the
// recording: listed and filtered, played from its frames, played as an MP4 once encoded (seekable,
// as long as the session), downloaded, deleted.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { chromium as playwright } from 'playwright-core';
import { launchChromium } from '../support/chromium';
import { startTestSite } from '../support/test-site';
import { signUp, snap, uniqueEmail, webUrl } from './helpers';
import { dashboardApi, fundWorkspace, openRouter, openTab } from './router-helpers';

/** The recording's MP4 is made after the session ends; a few seconds of frames take a few seconds. */
const ENCODE_TIMEOUT_MS = 60_000;

test('record a session from the Connect tab, watch it live, then play, download and delete its recording', async ({ page }) => {
  test.setTimeout(240_000);
  const [chromium, site] = await Promise.all([launchChromium(), startTestSite()]);
  try {
    await signUp(page, { name: 'Rita Recordings', email: uniqueEmail('recordings') }, null);
    const me = await dashboardApi<{ activeWorkspaceId: string }>(page, 'GET', '/v1/me');
    await fundWorkspace(page, me.activeWorkspaceId, 'recordings spec');

    await page.goto('/recordings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recordings');
    await expect(page.getByText('No recordings yet')).toBeVisible();

    // The Connect tab's URL with "Record this session".
    const routerId = await openRouter(page);
    await dashboardApi(page, 'POST', '/v1/providers', { routerId, body: { slug: 'chrome', name: 'Test Chrome', url: chromium.wsUrl } });
    await openTab(page, 'Connect');
    await page.getByRole('button', { name: 'Fill in the newest key' }).click();
    await expect(page.getByText('Your router key is filled in')).toBeVisible();
    const options = page.getByRole('region', { name: 'Connection options' });
    await expect(options).toContainText('Billed per minute');
    await expect(options).toContainText('Recording switch must be on');
    await options.getByRole('switch', { name: /Record this session/ }).click();
    const urlBlock = page.getByRole('figure', { name: 'Connect URL' });
    await expect(urlBlock).toContainText('session_record=true');
    const connectUrl = ((await urlBlock.locator('pre').textContent()) ?? '').trim();
    expect(connectUrl).toMatch(/^ws:\/\/.+\/v1\/connect\?token=rkey_\S+&session_record=true$/);

    // A real Playwright script on an animated page, left running while the owner watches.
    const client = await playwright.connectOverCDP(connectUrl);
    const context = client.contexts()[0] ?? (await client.newContext());
    const tab = await context.newPage();
    await tab.goto(`${site.url}/animated?title=Recorded%20page`);
    const pagesBefore = context.pages().length;
    const tickAt = async () => Number(await tab.locator('#tick').textContent());

    // The session's row and its recording's are written in the background (the client's 101
    // does not wait for them): ask until both are there.
    let sessionId = '';
    await expect
      .poll(async () => {
        const active = await dashboardApi<{ items: Array<{ id: string; hasRecording: boolean }> }>(page, 'GET', '/v1/sessions?state=active');
        sessionId = active.items[0]?.id ?? '';
        return active.items.map((s) => s.hasRecording);
      })
      .toEqual([true]);

    // The Sessions list marks the session as recorded; its row opens the panel, where the live view is.
    await page.goto('/sessions');
    const sessionRow = page.getByRole('table', { name: 'Sessions' }).getByRole('row', { name: new RegExp(sessionId.slice(0, 12)) });
    await expect(sessionRow.getByRole('img', { name: 'Recorded' })).toBeVisible();
    await sessionRow.getByRole('cell').filter({ hasText: 'Test Chrome' }).click();
    await expect(page).toHaveURL(new RegExp(`session=${sessionId}`));
    const drawer = page.getByRole('dialog', { name: 'Session', exact: true });
    const recordingSection = drawer.getByTestId('session-recording');
    await expect(recordingSection.getByTestId('recording-status')).toContainText('Recording');
    await recordingSection.getByRole('button', { name: 'Watch live' }).click();
    const live = drawer.getByRole('region', { name: 'Live view' });
    // It opens below the fold of the panel and is scrolled into sight, whole.
    await expect(live).toBeInViewport({ ratio: 0.95 });
    await expect(live.getByTestId('live-indicator')).toHaveText('Live', { timeout: 20_000 });
    const frame = live.getByTestId('live-frame');
    await expect(frame).toBeVisible({ timeout: 20_000 });
    await expect(live.getByTestId('live-delay')).toContainText(/Last frame \d+(\.\d)? s ago/);
    // The picture follows the page: a new frame replaces the first within moments.
    const firstSrc = await frame.getAttribute('src');
    await expect.poll(() => frame.getAttribute('src'), { timeout: 10_000 }).not.toBe(firstSrc);
    const loaded = await frame.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);
    expect(loaded).toBe(true);
    await snap(page, 'recording-live');

    // Watching did not touch the client's session: its page keeps running, no tab appeared.
    const tick = await tickAt();
    await expect.poll(tickAt).toBeGreaterThan(tick + 10);
    expect(context.pages()).toHaveLength(pagesBefore);
    expect(await tab.title()).toBe('Recorded page');

    // Before there is any MP4: the recording's own page plays the frames captured so far.
    await recordingSection.getByRole('link', { name: 'Open recording' }).click();
    await page.waitForURL(/\/recordings\/[^/?]+$/);
    const recordingId = page.url().split('/').at(-1)!;
    await expect(page.getByTestId('recording-status')).toContainText('Recording');
    await expect(page.getByRole('button', { name: 'Watch live' })).toBeVisible();
    const player = page.getByRole('region', { name: 'Player' });
    await expect(player.getByRole('radio', { name: 'Video' })).toHaveCount(0);
    const frames = player.getByTestId('frame-player');
    const playFrames = async () => {
      const image = frames.locator('img[data-frame-index]');
      await expect(image).toBeVisible({ timeout: 20_000 });
      await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      // It opens on the page's first frame (the script's tab came a moment after the start), not on an empty screen.
      const clock = frames.getByTestId('player-time');
      await expect(clock).toHaveText(/^\d+:\d\d \/ \d+:\d\d$/);
      const opened = (await clock.textContent())!;
      // Space plays (the player has focus), the clock moves, the picture changes; space pauses.
      const firstFrame = await image.getAttribute('data-frame-index');
      await frames.focus();
      await page.keyboard.press('Space');
      await expect(frames.getByRole('button', { name: 'Pause' })).toBeVisible();
      await expect(clock).not.toHaveText(opened, { timeout: 10_000 });
      await expect.poll(() => image.getAttribute('data-frame-index')).not.toBe(firstFrame);
      await page.keyboard.press('Space');
      await expect(frames.getByRole('button', { name: 'Play' })).toBeVisible();
    };
    await playFrames();
    await snap(page, 'recording-in-progress');
    await page.goBack();
    await expect(recordingSection.getByRole('button', { name: 'Watch live' })).toBeVisible();

    // The script goes on to a second page, then ends; the live view says so and the panel turns
    // to the recording's player.
    await tab.goto(`${site.url}/animated?title=Checkout`);
    await expect.poll(() => tab.title()).toBe('Checkout');
    await client.close();
    await expect(
      recordingSection.getByTestId('frame-player').or(recordingSection.getByTestId('recording-video')).or(live.getByText('Live view ended')),
    ).toBeVisible({ timeout: 20_000 });
    await expect(drawer.getByTestId('session-detail')).toContainText('Closed', { timeout: 20_000 });
    // What the session drew (a few seconds of recording, under a cent) in whole cents; the exact amount in its tooltip.
    const billed = drawer.getByTestId('session-billed');
    await expect(billed).toHaveText(/^(<\$0\.01|\$\d{1,3}(,\d{3})*\.\d\d)$/);
    await expect(billed).toHaveAttribute('title', /^\$\d+\.\d{2,5} \([\d,]+ millicents?\)$/);
    // The live route now explains why there is nothing to watch; an unknown session is not found.
    const ended = await page.request.get(`${webUrl}/api/sessions/${sessionId}/live`);
    expect(ended.status()).toBe(409);
    expect((await ended.json()).error.message).toMatch(/has ended/);
    expect((await page.request.get(`${webUrl}/api/sessions/no-such-session/live`)).status()).toBe(404);
    await page.keyboard.press('Escape');

    // The list, its filters, and the link to the recording.
    await page.goto('/recordings');
    const table = page.getByRole('table', { name: 'Recordings' });
    const row = table.getByRole('row', { name: new RegExp(sessionId.slice(0, 12)) });
    await expect(row).toBeVisible();
    await expect(row.getByTestId('recording-status')).toContainText(/Encoding|Ready|Not encoded/);
    // Named by its pages: the first title a tab showed, and how many pages it visited.
    await expect(row.getByTestId('recording-name')).toHaveText('Recorded page');
    await expect(row).toContainText('2 pages');
    // However many identical frames the capture skipped, one reads in the singular: the list's
    // answer is rewritten to hold exactly one.
    const oneDuplicate = (url: URL) => url.pathname === '/v1/replays';
    await page.route(oneDuplicate, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { replays: Array<Record<string, unknown>> } };
      for (const replay of body.data.replays) Object.assign(replay, { duplicatesSkipped: 1, droppedFrames: 0 });
      await route.fulfill({ status: response.status(), json: body });
    });
    await page.reload();
    await expect(row.getByText('1 duplicate', { exact: true })).toBeVisible();
    await page.unroute(oneDuplicate);
    await page.getByLabel('Router', { exact: true }).selectOption({ label: 'Default' });
    await expect(row).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`router=${routerId}`));
    await page.getByLabel('Session', { exact: true }).fill('someone-elses-session');
    await page.getByLabel('Session', { exact: true }).press('Enter');
    await expect(page.getByText('No recordings match these filters')).toBeVisible();
    await page.getByLabel('Session', { exact: true }).fill(sessionId);
    await page.getByLabel('Session', { exact: true }).press('Enter');
    await expect(row).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`session=${sessionId}`));
    await snap(page, 'recordings');
    await row.getByRole('link', { name: `Recording of session ${sessionId}` }).click();
    await page.waitForURL(`**/recordings/${recordingId}`);
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText(sessionId);

    // With the video ready, "Frames by tab" brings the frame player back: speed, and the scrubber's End.
    await expect(page.getByTestId('recording-status')).toContainText('Ready', { timeout: ENCODE_TIMEOUT_MS });
    await player.getByRole('radio', { name: 'Frames by tab' }).click();
    await playFrames();
    await frames.getByLabel('Speed').selectOption('4');
    await frames.getByLabel('Position').focus();
    await page.keyboard.press('End');
    await expect
      .poll(async () => {
        const [now, total] = ((await frames.getByTestId('player-time').textContent()) ?? '').split(' / ');
        return now === total;
      })
      .toBe(true);
    // The script's tab is named by the pages it visited, and the player says which one it shows.
    await expect(frames).toContainText('Recorded page + 1 more page');
    await expect(frames.getByTestId('current-page')).toHaveText('Page 2 of 2: Checkout');
    await snap(page, 'recording-frames');
    await page.keyboard.press('Home');
    await expect(frames.getByTestId('current-page')).toHaveText('Page 1 of 2: Recorded page');

    // The MP4: a <video> that loads its metadata (range requests), as long as the session.
    await player.getByRole('radio', { name: 'Video' }).click();
    const video = player.getByTestId('recording-video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    // It opens where the script's tab shows its first frame, not on the browser's blank start tab at 0:00.
    const manifest = await dashboardApi<{ targets: { targetId: string; frameCount: number }[]; frames: { t: number; targetId: string }[] }>(
      page,
      'GET',
      `/v1/replays/${recordingId}/manifest`,
    );
    const busiestTab = [...manifest.targets].sort((a, b) => b.frameCount - a.frameCount)[0]!.targetId;
    const firstT = manifest.frames.find((f) => f.targetId === busiestTab)!.t;
    // (Within the first 1.5 s the first frame already shows at 0:00, and it opens there.)
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(firstT > 1_500 ? firstT / 1000 : 0, 2);
    const session = await dashboardApi<{ durationMs: number }>(page, 'GET', `/v1/sessions/${sessionId}`);
    const videoMs = await video.evaluate((v: HTMLVideoElement) => v.duration * 1000);
    expect(Math.abs(videoMs - session.durationMs)).toBeLessThan(Math.max(1_000, session.durationMs * 0.1));
    // Seeking asks for a byte range of the file.
    const ranged = await page.request.get(`${webUrl}/v1/replays/${recordingId}/export/download?inline=1`, { headers: { Range: 'bytes=0-99' } });
    expect(ranged.status()).toBe(206);
    expect((await ranged.body()).length).toBe(100);
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = v.duration / 2;
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.seeking && v.currentTime > 0)).toBe(true);
    await snap(page, 'recording-video');

    // Download: an MP4 file.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download MP4' }).click()]);
    const bytes = await readFile((await download.path())!);
    expect(bytes.length).toBeGreaterThan(1_000);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(download.suggestedFilename()).toMatch(/\.mp4$/);

    // Delete, after a confirmation; the list is empty again.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this recording?' }).getByRole('button', { name: 'Delete recording' }).click();
    await page.waitForURL(/\/recordings$/);
    await expect(page.getByText('No recordings yet')).toBeVisible();
    const gone = await page.request.get(`${webUrl}/v1/replays/${recordingId}`);
    expect(gone.status()).toBe(404);
  } finally {
    await Promise.all([chromium.stop(), site.close()]);
  }
});
