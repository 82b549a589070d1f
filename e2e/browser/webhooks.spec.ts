import { expect, test } from '@playwright/test';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { signUp, snap, uniqueEmail } from './helpers';

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver({ answer: (r) => (r.path.startsWith('/fail') ? 500 : 200) });
});
test.afterAll(async () => {
  await receiver?.close();
});

test('add a webhook pointing at a real receiver, send a test, read the delivery log; edit, pause, delete', async ({ page }) => {
  const email = uniqueEmail('hooks');
  await signUp(page, { name: 'Wendy Webhooks', email });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.waitForURL('**/webhooks');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhooks');
  await expect(page.getByText('No webhooks yet')).toBeVisible();

  const tag = email.split('@')[0]!;
  await page.getByRole('button', { name: 'Add webhook' }).first().click();
  let dialog = page.getByRole('dialog');
  // The form checks the address before sending it.
  await dialog.getByLabel('Label').fill('Ops hook');
  await dialog.getByLabel('Endpoint URL').fill('ftp://example.com/in');
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(dialog.getByText('Must be an http:// or https:// address')).toBeVisible();
  await dialog.getByLabel('Endpoint URL').fill(`${receiver.url}/in-${tag}?token=very-secret-1`);
  await expect(dialog.getByText('Must be an http:// or https:// address')).toBeHidden();
  await dialog.getByLabel('Router').selectOption({ label: 'Default' });
  await dialog.getByLabel('Only these events').check();
  await expect(dialog.getByLabel('session.ended')).toBeChecked();
  await dialog.getByLabel('session.ended').uncheck();
  await expect(dialog.getByLabel('session.error')).toBeChecked();
  await snap(page, 'webhooks-form');
  await dialog.getByRole('button', { name: 'Add webhook' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /Ops hook/ });
  await expect(row).toContainText(`/in-${tag}?token=***`);
  await expect(row).not.toContainText('very-secret-1');
  await expect(row).toContainText('session.error');
  await expect(row).toContainText('Default');
  await expect(row).toContainText('Nothing sent yet');

  // Send test: the receiver gets webhook.test and the result is shown.
  await row.getByRole('button', { name: 'Send a test to Ops hook' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Test sent to “Ops hook”');
  await expect(dialog).toContainText('Delivered');
  await expect(dialog).toContainText('HTTP 200');
  const [got] = await receiver.waitFor(1, (r) => r.path === `/in-${tag}?token=very-secret-1`);
  expect(got!.body).toMatchObject({ version: '1', event: 'webhook.test', status: 'resolved', data: { label: 'Ops hook' } });
  await expect(dialog).toContainText(String(got!.headers['x-webhook-delivery-id']));
  await snap(page, 'webhooks-test-result');
  await dialog.getByRole('button', { name: 'Open the delivery log' }).click();

  const log = page.getByRole('table', { name: 'Delivery attempts' });
  await expect(log.getByRole('row')).toHaveCount(2);
  await expect(log).toContainText('webhook.test');
  await expect(log).toContainText('200');
  await expect(log).toContainText('Delivered');
  await expect(row).toContainText('Delivered');

  // Point it at an endpoint that fails: the test says so, the log shows the 500.
  await row.getByRole('button', { name: 'Edit Ops hook' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Label').fill('Ops hook v2');
  await dialog.getByLabel('Endpoint URL').fill(`${receiver.url}/fail-${tag}`);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog).toBeHidden();
  const renamed = page.getByRole('table', { name: 'Webhooks' }).getByRole('row', { name: /Ops hook v2/ });
  await renamed.getByRole('button', { name: 'Send a test to Ops hook v2' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Not delivered');
  await expect(dialog).toContainText('HTTP 500');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(log.getByRole('row')).toHaveCount(3);
  await expect(log.getByRole('row').nth(1)).toContainText('500');
  await expect(log.getByRole('row').nth(1)).toContainText('Failed');
  await expect(renamed).toContainText('Failed just now');
  await expect(renamed).toContainText('HTTP 500');
  await snap(page, 'webhooks');

  // Pause, then delete.
  await renamed.getByRole('button', { name: 'Edit Ops hook v2' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Active/).uncheck();
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(renamed).toContainText('Paused');
  await renamed.getByRole('button', { name: 'Delete Ops hook v2' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page.getByText('No webhooks yet')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Delivery attempts' })).toBeHidden();
});
