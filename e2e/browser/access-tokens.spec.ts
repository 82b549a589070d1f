import { expect, test } from '@playwright/test';
import { signUp, snap, uniqueEmail, webUrl } from './helpers';

test('create an access token in the dashboard and call /v1/me with it; rotate, revoke, delete', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = uniqueEmail('tokens');
  await signUp(page, { name: 'Toby Tokens', email }, '/account');
  const card = page.getByRole('region', { name: 'Access tokens' });
  await expect(page.getByTestId('token-cap')).toHaveText('0 of 10 active');
  await expect(page.getByText('No access tokens')).toBeVisible();

  await page.getByRole('button', { name: 'Create token' }).first().click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Label').fill('CI pipeline');
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(dialog.getByRole('heading')).toHaveText('Token “CI pipeline” created');
  await expect(dialog).toContainText("you won't see it again");
  const token = (await dialog.getByTestId('secret-value').textContent())?.trim() ?? '';
  expect(token).toMatch(/^acct_[A-Za-z0-9_-]{40,}$/);
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await snap(page, 'account-token-reveal');
  await dialog.getByRole('button', { name: 'Done' }).click();

  const table = page.getByRole('table', { name: 'Access tokens' });
  const row = table.getByRole('row', { name: /CI pipeline/ });
  await expect(row).toContainText(token.slice(0, 11));
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Never');
  await expect(page.getByTestId('token-cap')).toHaveText('1 of 10 active');

  // The token authenticates the API on its own, without the browser's cookie.
  const me = await request.get(`${webUrl}/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  const body = await me.json();
  expect(body).toMatchObject({
    ok: true,
    data: {
      user: { email, name: 'Toby Tokens', emailVerified: false, image: null },
      activeWorkspaceAccountState: 'free',
      isAdmin: false,
    },
  });
  expect(typeof body.data.user.id).toBe('string');
  expect(body.data.workspaces).toEqual([{ id: expect.any(String), slug: expect.any(String), name: "Toby's workspace", role: 'owner' }]);
  expect(body.data.activeWorkspaceId).toBe(body.data.workspaces[0].id);
  expect(body.data.routers).toEqual([{ id: expect.any(String), slug: 'default', name: 'Default' }]);
  expect(body.data.activeRouterInstanceId).toBe(body.data.routers[0].id);
  // Last used is written in the background after the call; reload until it shows.
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText('Active');
    await expect(row).toContainText(/just now|ago/, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await snap(page, 'account');

  // Rotate: a new value is revealed; the old one is refused at once.
  await card.getByRole('button', { name: 'Rotate CI pipeline' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate token' }).click();
  dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText('New value for “CI pipeline”');
  const rotated = (await dialog.getByTestId('secret-value').textContent())?.trim() ?? '';
  expect(rotated).toMatch(/^acct_/);
  expect(rotated).not.toBe(token);
  await dialog.getByRole('button', { name: 'Done' }).click();
  expect((await request.get(`${webUrl}/v1/me`, { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
  expect((await request.get(`${webUrl}/v1/me`, { headers: { Authorization: `Bearer ${rotated}` } })).status()).toBe(200);

  // Revoke: stays listed as revoked, no longer counts, no longer works.
  await card.getByRole('button', { name: 'Revoke CI pipeline' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
  await expect(row).toContainText('Revoked');
  await expect(page.getByTestId('token-cap')).toHaveText('0 of 10 active');
  const refused = await request.get(`${webUrl}/v1/me`, { headers: { Authorization: `Bearer ${rotated}` } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe('unauthenticated');

  // Delete: gone from the list.
  await card.getByRole('button', { name: 'Delete CI pipeline' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete token' }).click();
  await expect(page.getByText('No access tokens')).toBeVisible();
});
