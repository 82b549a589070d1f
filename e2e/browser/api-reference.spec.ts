import { expect, test } from '@playwright/test';
import { sidebar, signUp, snap, uniqueEmail } from './helpers';

test('the API reference: public, searchable, an anchor per operation, curl copied', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Signed out: the page is public.
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Browser Router API');
  const search = page.getByRole('searchbox', { name: 'Search operations' });
  await expect(page.getByText(/^\d+ operations$/)).toBeVisible();

  // `/` focuses the search; a path narrows the list to its operations, across the proxy too.
  // The key handler exists once the page has hydrated: press until it is there (CI once pressed
  // before, on a page already painted from the server).
  await expect(async () => {
    await page.keyboard.press('/');
    await expect(search).toBeFocused({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await search.fill('POST /v1/routers');
  await expect(page.getByText(/^\d+ of \d+ operations match$/)).toBeVisible();
  const createRouter = page.locator('article#createRouter');
  await expect(createRouter).toBeVisible();
  await expect(createRouter.getByRole('heading', { level: 3 })).toHaveText('Create a router');
  await expect(page.locator('article#listRouters')).toBeHidden();
  await expect(page.locator('article#screenshot')).toBeHidden();
  await snap(page, 'api-reference-search');

  await search.fill('screenshot');
  const screenshot = page.locator('article#screenshot');
  await expect(screenshot).toBeVisible();
  await expect(screenshot).toContainText('/v1/screenshot');
  await expect(screenshot).toContainText('Router key (bearer, or ?token=)');
  await expect(createRouter).toBeHidden();

  await search.fill('no such operation anywhere');
  await expect(page.getByText('No operation matches “no such operation anywhere”.')).toBeVisible();
  await expect(screenshot).toBeHidden();
  await expect(page.getByRole('heading', { level: 2, name: 'Data API' })).toBeHidden();

  // Back to everything; an operation's anchor, its curl command copied.
  await search.fill('');
  await page.goto('/docs/api#createRouter');
  await expect(createRouter).toBeInViewport();
  const curl = createRouter.getByRole('figure', { name: 'curl example for POST /v1/routers' });
  await expect(curl).toContainText('curl -X POST');
  await curl.getByRole('button', { name: 'Copy' }).click();
  await expect(curl.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^curl -X POST "http:\/\/[^"]+\/v1\/routers"/);
  expect(copied).toContain('Authorization: Bearer $ACCOUNT_TOKEN');
  expect(copied).toContain(`-d '{"name":"Scrapers","slug":"scrapers","description":"Nightly crawls"}'`);

  // A named schema is a link to its section.
  await createRouter.getByText('Schema', { exact: true }).first().click();
  await createRouter.getByRole('link', { name: 'RouterCreated' }).first().click();
  await expect(page.locator('#schema-RouterCreated')).toBeInViewport();

  // From the dashboard: the sidebar links to it.
  await signUp(page, { name: 'Dora Docs', email: uniqueEmail('apiref') });
  await sidebar(page).getByRole('link', { name: 'API reference' }).click();
  await page.waitForURL('**/docs/api');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Browser Router API');
});
