// Steps the router and session tests share: opening a router's page, and control-plane calls
// made with the page's own cookie (for setup the test is not about).
import { expect, type Page } from '@playwright/test';
import { newPage, signInAsOperator, webUrl } from './helpers';

/** Opens a router from the Routers page and returns its id (from the URL). */
export async function openRouter(page: Page, name = 'Default'): Promise<string> {
  await page.goto('/routers');
  await page.getByRole('table', { name: 'Routers' }).getByRole('link', { name, exact: true }).click();
  await page.waitForURL(/\/routers\/[^/]+\/providers$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  return /\/routers\/([^/]+)\//.exec(page.url())![1]!;
}

export async function openTab(page: Page, tab: 'Providers' | 'Keys' | 'Settings' | 'Connect'): Promise<void> {
  await page.getByRole('navigation', { name: 'Router sections' }).getByRole('link', { name: tab }).click();
  await page.waitForURL(new RegExp(`/${tab.toLowerCase()}$`));
}

/** A /v1 call with the signed-in page's cookie (same-origin, as the dashboard makes it). */
export async function dashboardApi<T = any>(
  page: Page,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  options: { routerId?: string; body?: unknown } = {},
): Promise<T> {
  const headers: Record<string, string> = { Origin: webUrl };
  if (options.routerId) headers['X-Router-Id'] = options.routerId;
  const response = await page.request.fetch(`${webUrl}${path}`, { method, headers, data: options.body });
  const body = await response.json();
  expect(body.ok, `${method} ${path}: ${JSON.stringify(body)}`).toBe(true);
  return body.data as T;
}

/** The text of the one-time secret in the open dialog. */
export async function revealedSecret(page: Page): Promise<string> {
  return ((await page.getByRole('dialog').getByTestId('secret-value').textContent()) ?? '').trim();
}

/** The operator credits the workspace with $5 (recording and tracing need a positive wallet balance). */
export async function fundWorkspace(page: Page, workspaceId: string, note: string): Promise<void> {
  const operator = await newPage(page.context().browser()!);
  try {
    await signInAsOperator(operator);
    await dashboardApi(operator, 'POST', `/v1/admin/workspaces/${workspaceId}/credits`, { body: { amountCents: 500, note } });
  } finally {
    await operator.context().close();
  }
}
