// A customer's test-mode top-up as the operator meets it: listed on the operator's Workspaces page
// with its link, confirmed there, and the operator lands on a page that says whose wallet was
// credited (not on their own Billing page, which has no such payment).
import { expect, test, type Page } from '@playwright/test';
import { newPage, sidebar, signInAsOperator, signUp, snap, uniqueEmail, workspaceNameOf } from './helpers';

const wallet = (page: Page) => page.getByRole('region', { name: 'Wallet balance' });

test("the operator confirms a customer's test payment from the Workspaces page and sees whose wallet was credited", async ({ page, browser }) => {
  const owner = { name: 'Tess Topup', email: uniqueEmail('topup-owner') };
  await signUp(page, owner);
  const workspace = workspaceNameOf(owner.name);
  await sidebar(page).getByRole('link', { name: 'Billing' }).click();
  await wallet(page).getByRole('button', { name: 'Top up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top up the wallet' });
  await dialog.getByRole('button', { name: '$20', exact: true }).click();
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await page.waitForURL('**/billing/test-checkout/**');
  await expect(page.getByText('The operator of this installation must confirm this payment')).toBeVisible();
  const checkoutPath = new URL(page.url()).pathname;

  const operator = await newPage(browser);
  await signInAsOperator(operator);
  await sidebar(operator).getByRole('link', { name: 'Workspaces' }).click();
  const waiting = operator.getByRole('table', { name: 'Test payments to confirm' }).getByRole('row').filter({ hasText: workspace });
  await expect(waiting).toContainText('$20.00');
  await snap(operator, 'operator-pending-checkouts');
  await waiting.getByRole('link', { name: `Open the test payment of ${workspace}` }).click();
  await operator.waitForURL(`**${checkoutPath}`);
  await operator.getByRole('button', { name: 'Confirm test payment' }).click();
  await expect(operator.getByRole('status').filter({ hasText: 'This test payment is confirmed' })).toHaveText(
    `This test payment is confirmed: the wallet of ${workspace} was credited $20.00.`,
  );
  expect(new URL(operator.url()).pathname).toBe(checkoutPath);
  await expect(operator.getByText('Payment not found')).toHaveCount(0);

  await operator.getByRole('link', { name: 'Back to the workspaces' }).click();
  await expect(operator.getByRole('heading', { level: 1 })).toHaveText('Workspaces');
  await expect(operator.getByRole('table', { name: 'Operator activity' })).toBeVisible();
  await expect(operator.getByRole('table', { name: 'Test payments to confirm' }).getByRole('row').filter({ hasText: workspace })).toHaveCount(0);

  await page.goto('/billing');
  await expect(wallet(page).getByTestId('wallet-balance')).toHaveText('$20.00');
  await operator.context().close();
});
