import { expect, test } from '@playwright/test';
import { newPage, PASSWORD, signIn, signUp, uniqueEmail, snap } from './helpers';

const NEW_PASSWORD = 'the changed account passphrase';

test('the account page changes the name and the password; other browsers are signed out, this one stays', async ({ page, browser }) => {
  const email = uniqueEmail('acctpw');
  await signUp(page, { name: 'Paul Password', email });
  const other = await newPage(browser);
  await other.goto('/sign-in');
  await signIn(other, email);
  await other.waitForURL('**/overview');

  await page.goto('/account');
  const profile = page.getByRole('region', { name: 'Profile' });
  await profile.getByRole('textbox', { name: 'Name' }).fill('Paula Renamed');
  await profile.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Name saved')).toBeVisible();
  await expect(profile.getByTestId('profile-name')).toHaveText('Paula Renamed');

  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current password').fill('not the password at all');
  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toHaveText('The current password is not correct');
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed; your other sessions were signed out')).toBeVisible();
  await expect(form.getByLabel('Current password')).toHaveValue('');
  await snap(page, 'account-password');

  // This browser got a renewed cookie; the other one is signed out.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
  await expect(profile.getByTestId('profile-name')).toHaveText('Paula Renamed');
  await other.goto('/account');
  await other.waitForURL('**/sign-in?callbackUrl=%2Faccount');
  await signIn(other, email, NEW_PASSWORD);
  await other.waitForURL('**/account');
  await other.context().close();
});
