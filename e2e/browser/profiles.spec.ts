import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { PROXY } from '../support/connect';
import { inviteAndJoin, sidebar, signUp, snap, uniqueEmail } from './helpers';
import { dashboardApi, openRouter, openTab } from './router-helpers';

// A Playwright storageState as `context.storageState()` writes it: a session cookie, a persistent
// one, and local storage on two origins.
const storageState = {
  cookies: [
    { name: 'sid', value: 'abc123', domain: 'shop.example', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' },
    { name: 'pref', value: 'dark', domain: '.example.org', path: '/', expires: 2_000_000_000, httpOnly: false, secure: false, sameSite: 'None' },
  ],
  origins: [
    { origin: 'https://shop.example', localStorage: [{ name: 'cart', value: '[1,2]' }] },
    {
      origin: 'https://www.example.org',
      localStorage: [
        { name: 'theme', value: 'dark' },
        { name: 'seen', value: '1' },
      ],
    },
  ],
};
const stateFile = (name: string, text = JSON.stringify(storageState)) => ({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

/** Bytes as the dashboard writes them (components/sessions/format.ts) for the sizes these tests see. */
const shownSize = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${+(bytes / 1024).toFixed(1)} KB`);

const importViaApi = (page: Page, slug: string, name: string) =>
  dashboardApi(page, 'POST', '/v1/profiles/import-playwright', { body: { slug, name, storageState } });

test('create, import a storageState, open it: versions, export, restore, rename, delete', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, { name: 'Pia Profiles', email: uniqueEmail('profiles') });
  await sidebar(page)
    .getByRole('link', { name: /^Profiles/ })
    .click();
  await page.waitForURL('**/profiles');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profiles');
  await expect(page.getByText('No profiles yet')).toBeVisible();
  await expect(page.getByRole('main')).toContainText('profile=<slug>');
  await snap(page, 'profiles-empty');

  // An empty profile; the server's slug rule is checked before sending.
  await page.getByRole('button', { name: 'Create profile' }).first().click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Slug').fill('not a slug');
  await dialog.getByRole('button', { name: 'Create profile' }).click();
  await expect(dialog.getByText('Use letters, digits, dots, underscores or hyphens')).toBeVisible();
  await dialog.getByLabel('Slug').fill('empty-one');
  await dialog.getByLabel('Name').fill('Empty one');
  await dialog.getByRole('button', { name: 'Create profile' }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: 'Profiles' });
  await expect(table.getByRole('row', { name: /Empty one/ })).toContainText('Never saved');

  // Import: the file is checked here (JSON, then its shape); a taken slug is the server's 409 on the field.
  await page.getByRole('button', { name: 'Import storageState' }).click();
  dialog = page.getByRole('dialog');
  const file = dialog.getByLabel('storageState file');
  await file.setInputFiles(stateFile('broken.json', 'not json'));
  await expect(dialog.getByText('This file is not JSON')).toBeVisible();
  await file.setInputFiles(stateFile('wrong.json', '{"cookies":[]}'));
  await expect(dialog.getByText(/^Not a Playwright storageState: .*origins/)).toBeVisible();
  await file.setInputFiles(stateFile('shop-login.json'));
  await expect(dialog.getByText('shop-login.json: 2 cookies, 2 origins')).toBeVisible();
  await expect(dialog.getByLabel('Slug')).toHaveValue('shop-login');
  await dialog.getByLabel('Slug').fill('empty-one');
  await dialog.getByRole('button', { name: 'Import profile' }).click();
  await expect(dialog.getByText('A profile with the slug "empty-one" already exists in this workspace')).toBeVisible();
  await dialog.getByLabel('Slug').fill('shop-login');
  await dialog.getByLabel('Name').fill('Shop login');
  await dialog.getByRole('button', { name: 'Import profile' }).click();
  await expect(dialog).toBeHidden();

  const imported = await dashboardApi<{ sizeBytes: number }>(page, 'GET', '/v1/profiles/shop-login');
  const row = table.getByRole('row', { name: /Shop login/ });
  await expect(row).toContainText('shop-login');
  await expect(row).toContainText(shownSize(imported.sizeBytes));
  await expect(row).toContainText('v1');
  await row.getByText('2 origins').click();
  await expect(row).toContainText('https://shop.example');
  await expect(row).toContainText('https://www.example.org');
  await snap(page, 'profiles');

  // The profile's page: details, connect snippet, origins, versions.
  await row.getByRole('link', { name: 'Shop login' }).click();
  await page.waitForURL('**/profiles/shop-login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shop login');
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details).toContainText('v1');
  await expect(details).toContainText(shownSize(imported.sizeBytes));
  await details.getByRole('button', { name: 'Copy slug' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('shop-login');
  await expect(page.getByRole('figure', { name: 'Profile connect URL' })).toContainText(`${PROXY}/v1/connect?token=<ROUTER_KEY>&profile=shop-login`);
  await expect(page.getByRole('region', { name: 'Captured origins' })).toContainText('https://www.example.org');
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('row')).toHaveCount(2);
  await expect(versions.getByRole('row').nth(1)).toContainText('Current');
  await expect(versions.getByRole('row').nth(1)).toContainText('Imported');

  // Export as Playwright: the downloaded file is the imported state.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Playwright storageState' }).click()]);
  expect(download.suggestedFilename()).toBe('shop-login.playwright.json');
  expect(JSON.parse(await readFile(await download.path(), 'utf8'))).toEqual(storageState);

  // A second version (setup through the API), then restore the first from the table.
  await dashboardApi(page, 'POST', '/v1/profiles/shop-login/versions/1/restore');
  await page.reload();
  await expect(versions.getByRole('row')).toHaveCount(3);
  await expect(versions.getByRole('button', { name: 'Restore v2' })).toHaveCount(0);
  await versions.getByRole('button', { name: 'Restore v1' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Restore version' }).click();
  await expect(page.getByText('Restored v1')).toBeVisible();
  await expect(versions.getByRole('row')).toHaveCount(4);
  await expect(versions.getByRole('row').nth(1)).toContainText('v3');
  await expect(versions.getByRole('row').nth(1)).toContainText('Restored');
  await expect(details).toContainText('v3');
  await snap(page, 'profile-detail');

  await page.getByRole('button', { name: 'Rename' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Shop (logged in)');
  await dialog.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Shop (logged in)');

  await page.getByRole('button', { name: 'Delete profile' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete profile' }).click();
  await page.waitForURL(/\/profiles$/);
  await expect(table.getByRole('row', { name: /Empty one/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Shop/ })).toHaveCount(0);
});

test('routers offer the profiles: Connect options and the agent default; a member may not export or delete', async ({ page: owner, browser, request }) => {
  await signUp(owner, { name: 'Ona Owner', email: uniqueEmail('powner') });
  await importViaApi(owner, 'shop-login', 'Shop login');

  // The Connect tab's picker and Read-only become query parameters of every snippet.
  const routerId = await openRouter(owner);
  await openTab(owner, 'Connect');
  await owner.getByRole('combobox', { name: /^Profile/ }).selectOption('shop-login');
  await owner.getByLabel('Read-only').check();
  await expect(owner.getByRole('figure', { name: 'Connect URL' })).toContainText('&profile=shop-login&readOnly=1');
  await expect(owner.getByRole('figure', { name: 'Puppeteer snippet' })).toContainText('profile=shop-login&readOnly=1');
  await owner.getByRole('combobox', { name: /^Profile/ }).selectOption({ label: 'Another slug…' });
  await owner.getByRole('textbox', { name: 'Profile slug' }).fill('new-login');
  await expect(owner.getByRole('figure', { name: 'Connect URL' })).toContainText('&profile=new-login&readOnly=1');

  // The agent default: a picker of the workspace's profiles, saved, and back to none.
  await openTab(owner, 'Settings');
  const agent = owner.getByRole('region', { name: 'Agent defaults' });
  await agent.getByLabel(/^Default profile/).selectOption('shop-login');
  await agent.getByRole('button', { name: 'Save' }).click();
  await expect(owner.getByText('Default profile: shop-login')).toBeVisible();
  await owner.reload();
  await expect(agent.getByLabel(/^Default profile/)).toHaveValue('shop-login');
  expect((await dashboardApi(owner, 'GET', `/v1/routers/${routerId}/agent-settings`)).defaultProfile).toBe('shop-login');
  await agent.getByLabel(/^Default profile/).selectOption('');
  await agent.getByRole('button', { name: 'Save' }).click();
  await expect(owner.getByText('No default profile')).toBeVisible();

  // A member lists, opens and imports, but does not export, restore, rename or delete.
  const { page: member } = await inviteAndJoin(owner, browser, request, { name: 'Max Member', email: uniqueEmail('pmember'), role: 'member' });
  await member.goto('/profiles');
  await expect(member.getByRole('table', { name: 'Profiles' })).toContainText('Shop login');
  await expect(member.getByRole('button', { name: 'Import storageState' })).toBeVisible();
  await expect(member.getByRole('button', { name: 'Create profile' })).toHaveCount(0);
  await member.getByRole('link', { name: 'Shop login' }).click();
  await expect(member.getByRole('heading', { level: 1 })).toHaveText('Shop login');
  await expect(member.getByRole('table', { name: 'Versions' })).toContainText('Imported');
  await expect(member.getByText('Only owners and admins can export a profile')).toBeVisible();
  await expect(member.getByRole('button', { name: /^Export/ })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Delete profile' })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Rename' })).toHaveCount(0);
  await snap(member, 'profile-as-member');
});
