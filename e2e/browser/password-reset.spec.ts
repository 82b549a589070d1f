import { expect, test } from '@playwright/test';
import { linkIn, newPage, PASSWORD, signIn, signUp, snap, uniqueEmail, waitForMail, workspaceNameOf } from './helpers';

const NEW_PASSWORD = 'a fresh and long passphrase';

test('forgot password: the e-mailed link sets a new password once; the old one fails, the new one signs in, and sessions from before are signed out', async ({
  page: before,
  browser,
  request,
}) => {
  const email = uniqueEmail('forgot');
  await signUp(before, { name: 'Fiona Forgot', email });

  const page = await newPage(browser);
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL('**/forgot-password');
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible();
  await expect(page.getByTestId('reset-requested')).toContainText(email);
  await snap(page, 'forgot-password-sent');

  const mail = await waitForMail(request, email, /^Reset your password$/);
  const link = linkIn(mail, '/reset-password?token=');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // The form checks the sign-up rules and the second entry before anything is sent.
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Repeat the new password').fill('short');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '10 characters' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Repeat the new password').fill(`${NEW_PASSWORD}!`);
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The two passwords differ' })).toBeVisible();
  await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
  await snap(page, 'reset-password-form');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('heading', { name: 'Password changed' })).toBeVisible();

  await page.getByRole('link', { name: 'Sign in with the new password' }).click();
  await page.waitForURL('**/sign-in?reset=1');
  await expect(page.getByText('Your password was changed')).toBeVisible();
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole('alert').filter({ hasText: 'password' })).toHaveText('The e-mail or password is not correct');
  await page.getByLabel('Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/overview');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(workspaceNameOf('Fiona Forgot'));

  // The browser signed in before the reset is sent to sign in at its next page.
  await before.goto('/account');
  await before.waitForURL('**/sign-in?callbackUrl=%2Faccount');

  // The link works once.
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('yet another long password');
  await page.getByLabel('Repeat the new password').fill('yet another long password');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('heading', { name: "This link didn't work" })).toBeVisible();
  await expect(page.getByText('This link was already used')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  await page.context().close();
});
