// The product's mark as the browser tab's icon: /favicon.ico (which browsers ask for on their own)
// and the icon links of every page answer 200, so no page logs a 404 for it.
import { expect, test } from '@playwright/test';
import { webUrl } from './helpers';

test('the favicon and the icon links of a page resolve', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();

  const favicon = await page.request.get(`${webUrl}/favicon.ico`);
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);

  const hrefs = await page.locator('link[rel~="icon"]').evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
  expect(hrefs.some((href) => href.includes('/icon.svg'))).toBe(true);
  for (const href of hrefs) {
    const icon = await page.request.get(href);
    expect(icon.status(), href).toBe(200);
    expect(icon.headers()['content-type'], href).toMatch(/^image\//);
  }
  expect(missing).toEqual([]);
});
