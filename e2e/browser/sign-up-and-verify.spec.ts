import { expect, test } from '@playwright/test';
import { linkIn, PASSWORD, signUp, signUpThroughForm, snap, uniqueEmail, waitForMail, webUrl } from './helpers';

test('sign up, get the verification e-mail over SMTP, open the link: the address is verified', async ({ page, request }) => {
  const email = uniqueEmail('verify');
  await signUpThroughForm(page, { name: 'Vera Verify', email });

  const banner = page.getByRole('region', { name: 'E-mail verification' });
  await expect(banner).toContainText('Check your e-mail');
  await expect(banner).toContainText(email);
  await snap(page, 'overview-unverified');

  const first = await waitForMail(request, email, /confirm your e-mail/i);
  // "Resend" sends a second, equally valid link.
  await banner.getByRole('button', { name: 'Resend e-mail' }).click();
  await expect(banner).toContainText('New link sent');
  const second = await waitForMail(request, email, /confirm your e-mail/i, 2);
  expect(linkIn(second, '/verify-email?token=')).not.toBe(linkIn(first, '/verify-email?token='));

  const link = linkIn(second, '/verify-email?token=');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'E-mail verified' })).toBeVisible();
  await snap(page, 'verify-email-success');
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("Vera's workspace");
  await expect(banner).toHaveCount(0);

  await page.goto('/account');
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: "This link didn't work" })).toBeVisible();
});

test('sign-in shows a wrong password inline and returns to the page it was sent from', async ({ page }) => {
  const email = uniqueEmail('signin');
  await signUp(page, { name: 'Sam Signin', email });
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL('**/sign-in');

  await page.goto('/members');
  await page.waitForURL('**/sign-in');
  await page.goto('/sign-in?callbackUrl=%2Fmembers');
  await snap(page, 'sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'password' })).toHaveText('The e-mail or password is not correct');
  await snap(page, 'sign-in-error');

  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/members');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Members');

  // A narrow window gets a top bar whose menu opens the sidebar.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' })).toBeVisible();
  await snap(page, 'mobile-menu');
});

test('repeated wrong passwords end in the too-many-attempts message', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: webUrl });
  const page = await context.newPage();
  const email = uniqueEmail('throttle');
  await signUp(page, { name: 'Theo Throttle', email });
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await page.waitForURL('**/sign-in');

  await page.getByLabel('E-mail').fill(email);
  const password = page.getByLabel('Password');
  const button = page.getByRole('button', { name: 'Sign in' });
  const tooMany = page.getByRole('alert').filter({ hasText: 'Too many' });
  // The limit is 10 failures per e-mail in a 15-minute window; a window boundary may reset it once.
  for (let attempt = 1; attempt <= 25 && !(await tooMany.isVisible()); attempt++) {
    await password.fill(`wrong password ${attempt}`);
    await button.click();
    await expect(button).toBeEnabled();
  }
  await expect(tooMany).toHaveText('Too many sign-in attempts; wait 15 minutes and try again');
  // Even the right password is refused while throttled.
  await password.fill(PASSWORD);
  await button.click();
  await expect(button).toBeEnabled();
  await expect(tooMany).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();
});
