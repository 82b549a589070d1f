// The overview of a new workspace: empty figures and the checklist; then a known history
// (sessions and data-API calls written as the product stores them) and the steps of the
// checklist done through the API: the figures, the chart and its tooltip, provider health,
// errors by provider and the latest sessions show it, and the checklist is gone.
import { expect, test, type Page } from '@playwright/test';
import { launchChromium } from '../support/chromium';
import { seedDataApiUsage, seedSession, seedSessions, seedUsage } from '../support/seed';
import { signUp, snap, uniqueEmail } from './helpers';
import { dashboardApi } from './router-helpers';

const DAY_MS = 86_400_000;
const stat = (page: Page, label: string) => page.getByRole('region', { name: label, exact: true }).getByTestId('stat-value');

test('a new workspace: empty overview and checklist; with known sessions and calls, every figure, the chart, and the checklist gone', async ({ page }) => {
  const chromium = await launchChromium();
  try {
    await signUp(page, { name: 'Olive Overview', email: uniqueEmail('overview') });
    const checklist = page.getByRole('region', { name: 'Getting started' });
    await expect(checklist.getByTestId('checklist-progress')).toHaveText('0 of 4 done');
    await expect(checklist.getByRole('listitem', { name: 'Add a browser provider: to do' })).toBeVisible();
    await expect(stat(page, 'Active sessions')).toHaveText('0');
    await expect(stat(page, 'Sessions, 30 days')).toHaveText('0');
    await expect(stat(page, 'Data-API calls, 30 days')).toHaveText('0');
    await expect(stat(page, 'Free sessions left')).toHaveText('10,000');
    await expect(stat(page, 'Wallet balance')).toHaveText('$0.00');
    await expect(page.getByRole('img', { name: 'Sessions and data-API calls per day: none in this period' })).toBeVisible();
    await expect(page.getByText('No sessions or data-API calls in this period')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Latest sessions' }).getByText('No sessions yet')).toBeVisible();
    await expect(page.getByTestId('health-default')).toHaveText('No providers: add one');
    await snap(page, 'overview-empty');

    // A token and a provider (tested and probed by the server, as the dashboard adds it).
    const me = await dashboardApi<{ activeWorkspaceId: string; routers: { id: string }[] }>(page, 'GET', '/v1/me');
    const workspaceId = me.activeWorkspaceId;
    const routerId = me.routers[0]!.id;
    await dashboardApi(page, 'POST', '/v1/access-tokens', { body: { label: 'CI' } });
    const provider = await dashboardApi<{ id: string }>(page, 'POST', '/v1/providers', {
      routerId,
      body: { slug: 'chrome', name: 'Test Chrome', url: chromium.wsUrl },
    });
    await page.reload();
    await expect(checklist.getByTestId('checklist-progress')).toHaveText('2 of 4 done');
    await expect(checklist.getByRole('listitem', { name: 'Create an access token: done' })).toBeVisible();
    await expect(checklist.getByRole('listitem', { name: 'Invite a teammate: to do' })).toBeVisible();
    await expect(page.getByTestId('health-default')).toContainText('chrome healthy', { timeout: 30_000 });

    // The history: today two sessions (one still active) and three answered and one failed
    // data-API call; yesterday one errored session; five days ago one closed session and two calls.
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const at = (daysAgo: number, minutes: number) => new Date(today - daysAgo * DAY_MS + minutes * 60_000);
    const row = (startedAt: Date, state: 'active' | 'closed' | 'errored') => ({
      providerId: provider.id,
      providerSlug: 'chrome',
      providerName: 'Test Chrome',
      state,
      startedAt,
      endedAt: state === 'active' ? null : startedAt,
      durationMs: state === 'active' ? 0 : 65_000,
      errorReason: state === 'errored' ? 'the provider closed the connection' : null,
    });
    const newest = await seedSession(workspaceId, routerId, row(at(0, 2), 'active'));
    await seedSessions(workspaceId, routerId, [row(at(0, 1), 'closed'), row(at(1, 600), 'errored'), row(at(5, 600), 'closed')]);
    const dayOf = (daysAgo: number) => new Date(today - daysAgo * DAY_MS);
    await seedDataApiUsage(workspaceId, [
      { routerId, day: dayOf(0), calls: 3, failed: 1 },
      { routerId, day: dayOf(5), calls: 2, failed: 0 },
    ]);
    await seedUsage(workspaceId, 9, new Date(today).toISOString().slice(0, 7));
    await dashboardApi(page, 'POST', '/v1/invitations', { body: { email: uniqueEmail('teammate'), role: 'member' } });

    await page.reload();
    await expect(stat(page, 'Active sessions')).toHaveText('1');
    await expect(page.getByRole('region', { name: 'Getting started' })).toHaveCount(0);
    await expect(stat(page, 'Sessions, 30 days')).toHaveText('4');
    await expect(page.getByRole('region', { name: 'Sessions, 30 days' })).toContainText('1 errored session');
    await expect(stat(page, 'Data-API calls, 30 days')).toHaveText('5');
    await expect(page.getByRole('region', { name: 'Data-API calls, 30 days' })).toContainText('1 failed call');
    await expect(stat(page, 'Free sessions left')).toHaveText('9,991');

    const activity = page.getByRole('region', { name: 'Activity' });
    await expect(activity).toContainText('4 sessions (1 errored) and 5 data-API calls (+1 failed) in the last 30 days (UTC).');
    await expect(activity.getByRole('img', { name: 'Sessions and data-API calls per day' })).toBeVisible();
    const perDay = activity.getByRole('table', { name: 'Sessions and data-API calls per day (UTC)' });
    const todayIso = new Date(today).toISOString().slice(0, 10);
    await expect(perDay.getByRole('row', { name: new RegExp(`^${todayIso}`) })).toHaveText(new RegExp(`${todayIso}\\s*2\\s*0\\s*3\\s*1`));
    await activity.locator(`[data-day="${todayIso}"]`).hover();
    const tooltip = page.getByRole('tooltip');
    await expect(tooltip).toContainText(/Sessions\s*2/);
    await expect(tooltip).toContainText(/Data-API calls\s*3/);
    await expect(tooltip).toContainText(/Failed calls\s*1/);
    const fiveDaysAgo = new Date(today - 5 * DAY_MS).toISOString().slice(0, 10);
    await activity.locator(`[data-day="${fiveDaysAgo}"]`).hover();
    await expect(tooltip).toContainText(/Sessions\s*1/);
    await expect(tooltip).toContainText(/Data-API calls\s*2/);
    await expect(tooltip).not.toContainText('Failed');
    // At phone width the chart is drawn at its own width: its labels keep their size (not a wide drawing shrunk).
    const chart = activity.getByRole('img', { name: 'Sessions and data-API calls per day' });
    const labelHeight = () => chart.locator('text', { hasText: 'Today' }).evaluate((text) => text.getBoundingClientRect().height);
    const wideLabel = await labelHeight();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(labelHeight).toBeCloseTo(wideLabel, 0);
    expect(wideLabel).toBeGreaterThanOrEqual(10);
    await snap(page, 'overview-phone');
    await page.setViewportSize({ width: 1440, height: 900 });

    const routers = page.getByRole('table', { name: 'Routers' });
    await expect(routers.getByRole('row', { name: /Default/ })).toContainText(/Default\s*default.*chrome.*1\s*4\s*1 errored\s*5\s*1 failed/);
    await expect(page.getByRole('region', { name: 'Errors by provider' }).getByRole('listitem', { name: 'Test Chrome: 1 errored of 4' })).toBeVisible();
    await snap(page, 'overview');

    const latest = page.getByRole('table', { name: 'Latest sessions' });
    await expect(latest.getByRole('row')).toHaveCount(5);
    await expect(latest.getByRole('row').nth(1)).toContainText('Active');
    await latest.getByRole('link', { name: `Open session ${newest.id}` }).click();
    await page.waitForURL(`**/sessions?session=${newest.id}`);
    await expect(page.getByRole('dialog', { name: 'Session', exact: true }).getByTestId('session-detail')).toContainText(newest.id);

    // The router's own page and the Routers list say how many data-API calls it served.
    await page.goto(`/routers/${routerId}/providers`);
    await expect(page.getByTestId('router-usage')).toHaveText('· 4 sessions and 5 data-API calls (+1 failed) in the last 30 days');
    await page.goto('/routers');
    await expect(page.getByRole('table', { name: 'Routers' }).getByRole('row', { name: /Default/ })).toContainText('5+1 failed');
  } finally {
    await chromium.stop();
  }
});
