import { expect, test } from '@playwright/test';
import { launchChromium } from '../support/chromium';
import { signUp, snap, uniqueEmail } from './helpers';
import { openRouter } from './router-helpers';

test('add an address provider after a live test; capabilities, live health, enable toggle, edit, delete', async ({ page }) => {
  const chromium = await launchChromium();
  try {
    await signUp(page, { name: 'Petra Providers', email: uniqueEmail('providers') });
    await openRouter(page);
    const card = page.getByRole('region', { name: 'Providers' });
    await expect(card.getByText('No providers yet')).toBeVisible();
    await snap(page, 'providers-empty');

    await card.getByRole('button', { name: 'Add provider' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Slug').fill('local-chrome');

    // Nothing listens on port 1: the live test says so, and so does the server when saving.
    await dialog.getByLabel('Browser address').fill('ws://127.0.0.1:1/devtools/browser/none');
    await dialog.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(dialog.getByTestId('test-result')).toContainText('Test failed: connection refused by 127.0.0.1:1');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await expect(dialog.getByText(/The provider failed its test: connection refused/)).toBeVisible();

    // The egress policy: a metadata address is refused whatever PRIVATE_NETWORK says, by the live
    // test and by the server when saving, on the address field.
    await dialog.getByLabel('Browser address').fill('ws://169.254.169.254/');
    await dialog.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(dialog.getByTestId('test-result')).toContainText(
      '169.254.169.254 is a link-local address (where cloud metadata services answer), refused whatever PRIVATE_NETWORK says',
    );
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    // On the field (an alert), not the live test's result (a status) that says the same: waiting
    // for the result alone let the next step run while the save was still pending.
    await expect(
      dialog
        .getByRole('alert')
        .filter({ hasText: '169.254.169.254 is a link-local address (where cloud metadata services answer), refused whatever PRIVATE_NETWORK says' }),
    ).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Add provider', exact: true })).toBeEnabled();

    await dialog.getByLabel('Browser address').fill(chromium.wsUrl);
    await expect(dialog.getByTestId('test-result')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(dialog.getByTestId('test-result')).toContainText(/Reachable: the browser answered in \d+ ms/);
    await dialog.getByRole('button', { name: 'Add header' }).click();
    await dialog.getByLabel('Header 1 name').fill('X-Team');
    await dialog.getByLabel('Header 1 value').fill('crawlers');
    await dialog.getByLabel('Priority').fill('5000');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await expect(dialog.getByText('Use 1 to 1000')).toBeVisible();
    await dialog.getByLabel('Priority').fill('10');
    await dialog.getByLabel('Max concurrent').fill('4');
    await snap(page, 'provider-add');
    await dialog.getByRole('button', { name: 'Add provider' }).click();
    await expect(dialog).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByText('Added local-chrome')).toBeVisible();

    const table = page.getByRole('table', { name: 'Providers' });
    const row = table.getByRole('row', { name: /local-chrome/ });
    for (const badge of ['Generic', 'Cookies', 'New pages', 'Target list', 'Interception', 'Screencast']) {
      await expect(row.getByLabel('Capabilities')).toContainText(badge);
    }
    await expect(page.getByTestId('priority-local-chrome')).toHaveText('10');
    // The proxy's own view of it, polled through the web app's status route.
    await expect(page.getByTestId('live-local-chrome')).toContainText('Healthy', { timeout: 20_000 });
    await expect(page.getByTestId('live-local-chrome')).toContainText('0 / 4 active');
    await expect(page.getByTestId('live-indicator')).toBeVisible();
    await snap(page, 'providers');

    // Disable: the proxy stops routing to it; the row says so and it survives a reload.
    await page.getByRole('switch', { name: 'Enable local-chrome' }).click();
    await expect(page.getByText('local-chrome disabled')).toBeVisible();
    await expect(row).toContainText('Disabled');
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Enable local-chrome' })).toHaveAttribute('aria-checked', 'false');
    await page.getByRole('switch', { name: 'Enable local-chrome' }).click();
    await expect(page.getByText('local-chrome enabled')).toBeVisible();
    await expect(page.getByTestId('live-local-chrome')).toContainText('Healthy', { timeout: 20_000 });

    // Edit priority in the dialog.
    await page.getByRole('button', { name: 'Actions for local-chrome' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    await expect(edit.getByLabel('Priority')).toHaveValue('10');
    await edit.getByLabel('Priority').fill('0');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit.getByText('Use 1 to 1000')).toBeVisible();
    await edit.getByLabel('Priority').fill('3');
    await edit.getByLabel('Name').fill('Local Chrome');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Saved Local Chrome')).toBeVisible();
    await expect(page.getByTestId('priority-local-chrome')).toHaveText('3');

    // Test and reprobe the saved provider.
    await page.getByRole('button', { name: 'Actions for Local Chrome' }).click();
    await page.getByRole('menuitem', { name: 'Test connection' }).click();
    await expect(page.getByText(/Local Chrome answered in \d+ ms/)).toBeVisible();
    await page.getByRole('button', { name: 'Actions for Local Chrome' }).click();
    await page.getByRole('menuitem', { name: 'Reprobe capabilities' }).click();
    await expect(page.getByText('Probed Local Chrome again')).toBeVisible();

    // The slug is taken now: the server's 409 lands on the slug field.
    await card.getByRole('button', { name: 'Add provider' }).click();
    const again = page.getByRole('dialog');
    await again.getByLabel('Slug').fill('local-chrome');
    await again.getByLabel('Browser address').fill(chromium.wsUrl);
    await again.getByRole('button', { name: 'Add provider' }).click();
    await expect(again.getByText('A provider with slug "local-chrome" already exists on this router')).toBeVisible();
    await again.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Actions for Local Chrome' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete provider' }).click();
    await expect(page.getByText('Provider deleted')).toBeVisible();
    await expect(card.getByText('No providers yet')).toBeVisible();
  } finally {
    await chromium.stop();
  }
});

test('add a key-based provider: the vendor checks the key before it is saved', async ({ page, request }) => {
  const vendor = process.env.TEST_ADAPTER_ONE_URL!;
  const apiKey = `kernel-${Date.now().toString(36)}`;
  expect((await request.post(`${vendor}/__test/keys`, { data: { apiKey } })).ok()).toBe(true);

  await signUp(page, { name: 'Kim Keys', email: uniqueEmail('keyprovider') });
  await openRouter(page);
  await page.getByRole('region', { name: 'Providers' }).getByRole('button', { name: 'Add provider' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: /Cloud vendor key/ }).click();
  await dialog.getByRole('radio', { name: /Adapter one/ }).click();
  await dialog.getByLabel('Slug').fill('kernel');
  await dialog.getByLabel('API key').fill('not-a-key');
  await dialog.getByRole('button', { name: 'Verify key' }).click();
  await expect(dialog.getByTestId('verify-result')).toContainText('The vendor rejected this key');

  await dialog.getByLabel('API key').fill(apiKey);
  await dialog.getByRole('button', { name: 'Verify key' }).click();
  await expect(dialog.getByTestId('verify-result')).toContainText('Key accepted by');
  await dialog.getByLabel('Region').selectOption('eu-west');
  await dialog.getByLabel(/Inactivity timeout/).fill('5');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog.getByText('Use 10 to 259200')).toBeVisible();
  await dialog.getByLabel(/Inactivity timeout/).fill('600');
  await snap(page, 'provider-add-key');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(page.getByText('Added kernel')).toBeVisible();

  const row = page.getByRole('table', { name: 'Providers' }).getByRole('row', { name: /kernel/ });
  await expect(row).toContainText('Adapter one');
  await expect(row).toContainText('Not probed');
  await expect(page.getByTestId('live-kernel')).toContainText('Healthy', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Actions for kernel' }).click();
  await expect(page.getByRole('menuitem', { name: 'Reprobe capabilities' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Check key' }).click();
  await expect(page.getByText(/kernel answered in \d+ ms/)).toBeVisible();
});
