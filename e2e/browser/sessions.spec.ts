import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { launchChromium } from '../support/chromium';
import { cdp, connectUrl, expectOpened } from '../support/connect';
import { sidebar, signUp, snap, uniqueEmail } from './helpers';
import { dashboardApi, openRouter } from './router-helpers';

test('a session through the proxy shows live on the Sessions page; the owner closes it from the UI', async ({ page }) => {
  const chromium = await launchChromium();
  try {
    await signUp(page, { name: 'Sid Sessions', email: uniqueEmail('sessions') }, '/sessions');
    await expect(page.getByText('No sessions yet')).toBeVisible();

    const routerId = await openRouter(page);
    await dashboardApi(page, 'POST', '/v1/providers', { routerId, body: { slug: 'chrome', name: 'Test Chrome', url: chromium.wsUrl } });
    const { plaintextKey } = await dashboardApi<{ plaintextKey: string }>(page, 'GET', '/v1/api-keys/current/plaintext', { routerId });
    const opened = await expectOpened(connectUrl(plaintextKey));
    expect(opened.provider).toBe('chrome');
    expect((await cdp(opened.ws, 'Browser.getVersion')).product).toMatch(/Chrome/);

    // The provider's live state counts the session.
    await page.reload();
    await expect(page.getByTestId('live-chrome')).toContainText('1 active', { timeout: 20_000 });

    await sidebar(page)
      .getByRole('link', { name: /^Sessions/ })
      .click();
    const table = page.getByRole('table', { name: 'Sessions' });
    const row = table.getByRole('row', { name: new RegExp(opened.sessionId.slice(0, 8)) });
    await expect(row).toContainText('Active');
    await expect(row).toContainText('Test Chrome');
    await expect(page.getByRole('img', { name: /Sessions per day/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Sessions per day' })).toContainText('1 session in the last 14 days');

    // Every filter of the API.
    await page.getByLabel('State').selectOption('errored');
    await expect(page.getByText('No sessions match these filters')).toBeVisible();
    await page.getByLabel('State').selectOption('active');
    await expect(row).toBeVisible();
    await page.getByLabel('Router').selectOption({ label: 'Default' });
    await page.getByLabel('Provider').selectOption('chrome');
    await page.getByLabel('Kind').selectOption('route');
    await page.getByLabel('Started').selectOption('1d');
    await expect(row).toBeVisible();
    // Filters reach the URL asynchronously: assert with retries.
    await expect(page).toHaveURL(/state=active/);
    await expect(page).toHaveURL(/provider=chrome/);
    await page.getByLabel('Kind').selectOption('agent');
    await expect(page.getByText('No sessions match these filters')).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).first().click();
    await expect(row).toBeVisible();
    await snap(page, 'sessions');

    // Not recorded: no mark beside the id.
    await expect(row.getByRole('img', { name: 'Recorded' })).toHaveCount(0);

    // The detail, from a click anywhere on the row (here its provider): live duration, the traffic
    // counted so far (as the row shows it), then Close.
    await row.getByRole('cell').filter({ hasText: 'Test Chrome' }).click();
    const drawer = page.getByRole('dialog', { name: 'Session', exact: true });
    const detail = drawer.getByTestId('session-detail');
    await expect(detail).toContainText('Test Chrome');
    await expect(detail).toContainText('Still running');
    await expect(detail).toContainText(opened.sessionId);
    await expect(detail.getByTestId('traffic-note')).toContainText('So far');
    await expect(detail).not.toContainText('counted when the session ends');
    await expect(detail).toContainText('Bytes in');
    await expect(detail.getByTestId('session-billed')).toHaveText('$0.00');
    await expect(detail.getByTestId('session-billed')).toHaveAttribute('title', '$0.00 (0 millicents)');
    const firstDuration = await drawer.getByTestId('session-duration').textContent();
    await expect(drawer.getByTestId('session-duration')).not.toHaveText(firstDuration ?? '');
    await snap(page, 'session-detail');
    await drawer.getByRole('button', { name: 'Close session' }).click();
    await page.getByRole('dialog', { name: 'Close this session?' }).getByRole('button', { name: 'Close session' }).click();

    // The test's own timeout bounds it, should the socket stay open.
    const closed = await opened.closed;
    expect(closed.code).toBe(4000);
    await expect(detail).toContainText('Session closed');
    await expect(detail).toContainText('Closed');
    await expect(drawer.getByRole('button', { name: 'Close session' })).toHaveCount(0);
    await expect(detail.getByTestId('traffic-note')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
    await expect(row).toContainText('Closed');

    // From the keyboard: the row's session button, Enter.
    await row.getByRole('button', { name: `Details of session ${opened.sessionId}` }).focus();
    await page.keyboard.press('Enter');
    await expect(detail).toContainText(opened.sessionId);
    await expect(page).toHaveURL(new RegExp(`session=${opened.sessionId}`));
  } finally {
    await chromium.stop();
  }
});

test("a session's panel lists the files its browser downloaded; each link fetches the file under its name", async ({ page }) => {
  await signUp(page, { name: 'Dora Downloads', email: uniqueEmail('downloads') }, null);
  const me = await dashboardApi<{ activeWorkspaceId: string; routers: { id: string }[] }>(page, 'GET', '/v1/me');
  const { seedSession } = await import('../support/seed');
  const { saveDownload, saveProviderDownloads } = await import('../../lib/downloads/store');
  // Stored as the proxy stores them at the end of a session on the local pool.
  const ended = await seedSession(me.activeWorkspaceId, me.routers[0]!.id, {
    state: 'closed',
    startedAt: new Date(Date.now() - 5 * 60_000),
    durationMs: 60_000,
  });
  const report = Buffer.from('%PDF-1.7\nquarterly figures\n'.repeat(100));
  await saveDownload({ workspaceId: me.activeWorkspaceId, sessionId: ended.id, name: 'résumé (1).pdf', data: report });
  // And one a traced session's provider kept (listed from the trace, no file here).
  await saveProviderDownloads({
    workspaceId: me.activeWorkspaceId,
    sessionId: ended.id,
    downloads: [{ name: 'kept-there.zip', url: 'https://files.example/kept-there.zip', bytes: 2_048, at: Date.now() }],
  });
  const none = await seedSession(me.activeWorkspaceId, me.routers[0]!.id, { state: 'closed', startedAt: new Date(Date.now() - 4 * 60_000), durationMs: 1_000 });

  await page.goto(`/sessions?session=${ended.id}`);
  const downloads = page.getByRole('dialog', { name: 'Session', exact: true }).getByTestId('session-downloads');
  const files = downloads.getByRole('list', { name: 'Downloaded files' });
  await expect(files.getByRole('listitem')).toHaveCount(2);
  await expect(files.getByRole('listitem').first()).toContainText('résumé (1).pdf');
  await expect(files.getByRole('listitem').first()).toContainText('2.6 KB');
  const atProvider = files.getByRole('listitem').nth(1);
  await expect(atProvider).toContainText('kept-there.zip');
  await expect(atProvider).toContainText('Kept by the provider');
  await expect(atProvider.getByRole('link')).toHaveCount(0);
  await downloads.scrollIntoViewIfNeeded();
  await snap(page, 'session-downloads');
  const [download] = await Promise.all([page.waitForEvent('download'), files.getByRole('link', { name: 'Download résumé (1).pdf' }).click()]);
  expect(download.suggestedFilename()).toBe('résumé (1).pdf');
  expect((await readFile(await download.path())).equals(report)).toBe(true);

  // A session without files says where they come from.
  await page.goto(`/sessions?session=${none.id}`);
  await expect(page.getByRole('dialog', { name: 'Session', exact: true }).getByTestId('downloads-empty')).toHaveText(
    'None. Files the browser downloads on the local pool appear here once the session ends; on other providers, those of a traced session are listed (the provider keeps the files).',
  );
});
