import { expect, test } from '@playwright/test';
import { connectUrl, expectRefused } from '../support/connect';
import { signUp, snap, uniqueEmail } from './helpers';
import { openRouter, openTab, revealedSecret } from './router-helpers';

test('router keys: create with a one-time reveal and copy, revoke, rotate all; the chat link', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, { name: 'Keith Keys', email: uniqueEmail('rkeys') });
  await openRouter(page);
  await openTab(page, 'Keys');
  const table = page.getByRole('table', { name: 'Router keys' });
  const defaultRow = table.getByRole('row', { name: /Default key/ });
  await expect(defaultRow).toContainText('Live');
  await expect(defaultRow).toContainText('rkey_');

  // Create: shown once, copied, listed by its prefix.
  await page.getByRole('button', { name: 'Create key' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByText('Enter a label')).toBeVisible();
  await dialog.getByLabel('Label').fill('CI runner');
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByRole('heading')).toHaveText('Key “CI runner” created');
  const ciKey = await revealedSecret(page);
  expect(ciKey).toMatch(/^rkey_/);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ciKey);
  await snap(page, 'router-key-reveal');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const ciRow = table.getByRole('row', { name: /CI runner/ });
  await expect(ciRow).toContainText(ciKey.slice(0, 11));
  await expect(ciRow).toContainText('Live');
  await expect(ciRow).toContainText('Never');
  // The key authenticates at the proxy: this router has no provider yet, which is the 400, not a 401.
  await expectRefused(connectUrl(ciKey), 400);

  // Revoke: stays listed, refused at once.
  await page.getByRole('button', { name: 'Revoke CI runner' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText('Key revoked')).toBeVisible();
  await expect(ciRow).toContainText('Revoked');
  await expect(page.getByRole('button', { name: 'Revoke CI runner' })).toHaveCount(0);
  await expectRefused(connectUrl(ciKey), 401);

  // Rotate all: every live key is revoked and one new key is revealed.
  await page.getByRole('button', { name: 'Rotate all' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate keys' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Keys rotated');
  const rotated = await revealedSecret(page);
  expect(rotated).toMatch(/^rkey_/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(defaultRow).toContainText('Revoked');
  await expect(table.getByRole('row', { name: /Rotated key/ })).toContainText('Live');
  await expectRefused(connectUrl(rotated), 400);
  await snap(page, 'router-keys');

  // The chat link: none, create, reveal, rotate (a new token), delete.
  const chat = page.getByRole('region', { name: 'Chat link' });
  await expect(chat.getByText('No chat link')).toBeVisible();
  await chat.getByRole('button', { name: 'Create chat link' }).click();
  await expect(page.getByText('Chat link created')).toBeVisible();
  await chat.getByRole('button', { name: 'Show token' }).click();
  const first = (await chat.getByTestId('chat-link-token').textContent())?.trim() ?? '';
  expect(first).toMatch(/^mcp_/);
  await chat.getByRole('button', { name: 'Rotate' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate link' }).click();
  await expect(page.getByText('Chat link rotated')).toBeVisible();
  await expect(chat.getByTestId('chat-link-token')).not.toHaveText(first);
  await expect(chat.getByTestId('chat-link-token')).toHaveText(/^mcp_/);
  await chat.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete link' }).click();
  await expect(chat.getByText('No chat link')).toBeVisible();

  // After a reload the one-time key is gone from the page; an owner fetches the newest one.
  await openTab(page, 'Connect');
  await page.reload();
  await expect(page.getByRole('figure', { name: 'Connect URL' })).toContainText('token=<ROUTER_KEY>');
  await page.getByRole('button', { name: 'Fill in the newest key' }).click();
  await expect(page.getByRole('figure', { name: 'Connect URL' })).toContainText(`token=${rotated}`);
});
