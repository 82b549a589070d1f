import { expect, test } from '@playwright/test';
import { PROXY } from '../support/connect';
import { sidebar, signUp, snap, uniqueEmail } from './helpers';
import { openRouter, openTab, revealedSecret } from './router-helpers';

test('create a router, see its key once, and find it filled into the Connect tab', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, { name: 'Rita Routers', email: uniqueEmail('routers') });
  await sidebar(page)
    .getByRole('link', { name: /^Routers/ })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Routers');
  const table = page.getByRole('table', { name: 'Routers' });
  await expect(table.getByRole('row', { name: /Default/ })).toContainText('default');

  await page.getByRole('button', { name: 'Create router' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Scraping fleet');
  await expect(dialog.getByText('Leave empty to use scraping-fleet')).toBeVisible();
  // The schema the server uses refuses this slug before anything is sent.
  await dialog.getByLabel(/^Slug/).fill('Not A Slug');
  await dialog.getByRole('button', { name: 'Create router' }).click();
  await expect(dialog.getByText('Use 2 to 40 lowercase letters, digits or hyphens')).toBeVisible();
  // A slug that exists is the server's 409, shown on the field.
  await dialog.getByLabel(/^Slug/).fill('default');
  await dialog.getByRole('button', { name: 'Create router' }).click();
  await expect(dialog.getByText('A router with slug "default" already exists')).toBeVisible();
  await dialog.getByLabel(/^Slug/).fill('');
  await dialog.getByLabel(/^Description/).fill('Nightly crawls');
  await dialog.getByRole('button', { name: 'Create router' }).click();

  await expect(dialog.getByRole('heading')).toHaveText('Router “Scraping fleet” created');
  // The key can be fetched again (the newest one is kept encrypted), so the dialog does not say otherwise.
  await expect(dialog).toContainText('Owners and admins can fetch it again on the Connect tab');
  await expect(dialog).not.toContainText("won't see it again");
  const key = await revealedSecret(page);
  expect(key).toMatch(/^rkey_[A-Za-z0-9_-]{40,}$/);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await snap(page, 'router-created');

  await dialog.getByRole('button', { name: 'Open Connect tab' }).click();
  await page.waitForURL(/\/routers\/[^/]+\/connect$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Scraping fleet');
  await expect(page.getByText('Your router key is filled in')).toBeVisible();
  const url = `${PROXY}/v1/connect?token=${key}`;
  await expect(page.getByRole('figure', { name: 'Connect URL' })).toContainText(url);
  await expect(page.getByRole('figure', { name: 'Playwright (Node.js) snippet' })).toContainText(`chromium.connectOverCDP('${url}')`);
  await expect(page.getByRole('figure', { name: 'Playwright (Node.js) snippet' })).toContainText("import { chromium } from 'playwright-core';");
  // The data API: the same key as a bearer token, on the proxy's HTTP address (docs/connect.md).
  const dataApi = page.getByRole('figure', { name: 'Data API (curl) snippet' });
  const proxyHttp = PROXY.replace(/^ws/, 'http');
  await expect(dataApi).toContainText(`curl -X POST ${proxyHttp}/v1/screenshot`);
  await expect(dataApi).toContainText(`curl -X POST ${proxyHttp}/v1/content`);
  await expect(dataApi).toContainText(`-H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json'`);
  await expect(dataApi).toContainText(`-d '{"url":"https://example.com"}' -o page.png`);
  await expect(page.getByRole('figure', { name: 'Puppeteer snippet' })).toContainText(`puppeteer.connect({ browserWSEndpoint: '${url}' })`);
  await expect(page.getByRole('figure', { name: 'Raw CDP (Node.js, ws) snippet' })).toContainText(`new WebSocket('${url}')`);
  await page.getByRole('figure', { name: 'Playwright (Node.js) snippet' }).getByRole('button', { name: 'Copy' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(`connectOverCDP('${url}')`);

  // Options become query parameters of every snippet.
  await page.getByRole('switch', { name: /Record this session/ }).click();
  await page.getByRole('combobox', { name: /^Profile/ }).selectOption({ label: 'Another slug…' });
  await page.getByRole('textbox', { name: 'Profile slug' }).fill('shop-login');
  await expect(page.getByRole('figure', { name: 'Connect URL' })).toContainText(`${url}&profile=shop-login&session_record=true`);
  await expect(page.getByRole('figure', { name: 'Puppeteer snippet' })).toContainText('session_record=true');
  await snap(page, 'router-connect');

  await page.getByRole('link', { name: 'Routers', exact: true }).first().click();
  const row = table.getByRole('row', { name: /Scraping fleet/ });
  await expect(row).toContainText('scraping-fleet');
  await expect(row).toContainText('Nightly crawls');
  await expect(row).toContainText('Round robin');
  await snap(page, 'routers');
});

test('router settings: a range error, then a valid save; switches, agent defaults, rename, delete', async ({ page }) => {
  await signUp(page, { name: 'Sam Settings', email: uniqueEmail('settings') });
  await openRouter(page);
  await openTab(page, 'Settings');

  const form = page.getByRole('form', { name: 'Routing settings' });
  await expect(form.getByLabel(/^Connection timeout/)).toHaveValue('15000');
  await expect(form.getByText('1,000–30,000 ms · default 15,000')).toBeVisible();
  await form.getByLabel(/^Connection timeout/).fill('500');
  await form.getByLabel(/^Failure threshold/).fill('1.5');
  await form.getByRole('button', { name: 'Save routing settings' }).click();
  await expect(form.getByText('Must be at least 1,000')).toBeVisible();
  await expect(form.getByText('Must be between 0 and 1')).toBeVisible();
  await snap(page, 'router-settings-errors');

  await form.getByLabel(/^Connection timeout/).fill('20000');
  await form.getByLabel(/^Failure threshold/).fill('0.25');
  await form.getByLabel('Strategy').selectOption('weighted');
  await form.getByRole('button', { name: 'Save routing settings' }).click();
  await expect(page.getByText('Routing settings saved')).toBeVisible();
  await expect(form.getByText('Must be at least 1,000')).toHaveCount(0);
  await page.reload();
  await expect(form.getByLabel(/^Connection timeout/)).toHaveValue('20000');
  await expect(form.getByLabel(/^Failure threshold/)).toHaveValue('0.25');
  await expect(form.getByLabel('Strategy')).toHaveValue('weighted');
  await expect(page.getByRole('main')).toContainText('Weighted');

  // The four switches save as they flip.
  const recording = page.getByRole('switch', { name: /^Recording/ });
  await expect(recording).toHaveAttribute('aria-checked', 'true');
  await recording.click();
  await expect(page.getByText('Recording off')).toBeVisible();
  await page.reload();
  await expect(recording).toHaveAttribute('aria-checked', 'false');

  // Agent defaults: a flag; the default profile is picked from the workspace's profiles (none yet).
  await page.getByRole('switch', { name: /^Record by default/ }).click();
  await expect(page.getByText('Record by default: on')).toBeVisible();
  await expect(page.getByLabel(/^Default profile/)).toHaveValue('');
  await expect(page.getByRole('region', { name: 'Agent defaults' }).getByRole('button', { name: 'Save' })).toBeDisabled();
  await snap(page, 'router-settings');

  // Trace redaction: a name that is no header name is refused on its line; the list saves and reloads.
  const redaction = page.getByRole('form', { name: 'Trace redaction settings' });
  const names = redaction.getByLabel('Extra names to redact');
  await expect(names).toHaveValue('');
  await names.fill('X-Site-Secret-Id\nbad name');
  await redaction.getByRole('button', { name: 'Save trace redaction' }).click();
  await expect(redaction.getByRole('alert')).toContainText('"bad name": Use letters, digits');
  await names.fill('X-Site-Secret-Id\nacct, ACCT');
  await redaction.getByRole('button', { name: 'Save trace redaction' }).click();
  await expect(page.getByText('Trace redaction saved')).toBeVisible();
  await expect(names).toHaveValue('X-Site-Secret-Id\nacct');
  await page.reload();
  await expect(names).toHaveValue('X-Site-Secret-Id\nacct');
  await expect(redaction.getByRole('button', { name: 'Save trace redaction' })).toBeDisabled();

  await page.getByRole('region', { name: 'General' }).getByLabel('Name').fill('Main router');
  await page.getByRole('region', { name: 'General' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Main router');

  // The workspace's only router cannot be deleted: the server's 409 shows in the dialog.
  await page.getByRole('button', { name: 'Delete router' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel(/Type .* to confirm/).fill('default');
  await dialog.getByRole('button', { name: 'Delete router' }).click();
  await expect(dialog.getByRole('alert')).toContainText('A workspace needs at least one router');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // A second one can.
  await page.goto('/routers');
  await page.getByRole('button', { name: 'Create router' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Throwaway');
  await dialog.getByRole('button', { name: 'Create router' }).click();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await page.waitForURL(/\/providers$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Throwaway');
  await openTab(page, 'Settings');
  await page.getByRole('button', { name: 'Delete router' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel(/Type .* to confirm/).fill('throwaway');
  await dialog.getByRole('button', { name: 'Delete router' }).click();
  await page.waitForURL(/\/routers$/);
  await expect(page.getByRole('table', { name: 'Routers' }).getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('table', { name: 'Routers' })).not.toContainText('Throwaway');
});
