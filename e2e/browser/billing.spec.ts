// The prepaid wallet in the dashboard, in the test stack's built-in test mode (no Stripe key):
// a top-up from the quote to the receipt, a member who may not top up, and the operator's panel
// granting credits that the workspace then sees.
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { inviteAndJoin, newPage, sidebar, signInAsOperator, signUp, snap, uniqueEmail, workspaceNameOf } from './helpers';

const wallet = (page: Page) => page.getByRole('region', { name: 'Wallet balance' });
const allKinds = ['All kinds', 'Sessions', 'Recording', 'Traces', 'Own-key overage', 'Reseller', 'Top-up', 'Refund', 'Credit grant'];
const operatorOnlyKinds = ['Own-key overage', 'Reseller'];

test('the operator tops up $20 in test mode: quote, checkout, balance, payment, receipt and ledger', async ({ page }) => {
  await signInAsOperator(page);
  // A workspace of its own, so what other specs do as the operator never shows here.
  const name = `Wallet ${randomBytes(3).toString('hex')}`;
  const created = await page.evaluate(
    async (body) => (await fetch('/v1/workspaces', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
    { name },
  );
  expect(created).toBe(201);

  await page.goto('/overview');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await page.getByRole('link', { name: 'Wallet and top-ups' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Billing');
  await expect(wallet(page).getByTestId('wallet-balance')).toHaveText('$0.00');
  await expect(wallet(page)).toContainText('Free');
  await expect(wallet(page)).toContainText('5,000 calls a day');
  await expect(page.getByRole('progressbar', { name: 'Included sessions used' })).toHaveAttribute('aria-valuetext', '0 of 10,000');
  await expect(page.getByText('Nothing in the ledger yet')).toBeVisible();
  await expect(page.getByText('No payments yet')).toBeVisible();
  await snap(page, 'billing-free');

  await wallet(page).getByRole('button', { name: 'Top up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top up the wallet' });
  await dialog.getByRole('button', { name: '$50', exact: true }).click();
  await expect(dialog.getByLabel('Amount (USD)')).toHaveValue('50');
  await dialog.getByRole('button', { name: '$20', exact: true }).click();
  // The default card fee (2.9 % + 30 ¢) grossed up: the wallet gets exactly $20.00.
  const quote = dialog.getByRole('definition');
  await expect(quote).toHaveText(['$20.00', '$0.91', '$20.91']);
  await snap(page, 'billing-top-up');
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();

  await page.waitForURL('**/billing/test-checkout/**');
  await expect(page.getByText('Amount charged')).toBeVisible();
  await page.getByRole('button', { name: 'Confirm test payment' }).click();
  await page.waitForURL(/\/billing\?checkout=/);
  await expect(page.getByRole('status').filter({ hasText: 'Payment received' })).toContainText('$20.00 was added to the wallet');
  await expect(wallet(page).getByTestId('wallet-balance')).toHaveText('$20.00');
  await expect(wallet(page).getByTestId('wallet-balance')).toHaveAttribute('title', '$20.00 (2,000,000 millicents)');
  await expect(wallet(page)).toContainText('Paid');
  await expect(wallet(page)).toContainText('100,000 API calls a day');

  const payments = page.getByRole('table', { name: 'Payments' });
  await expect(payments.getByRole('row')).toHaveCount(2);
  await expect(payments.getByRole('row').nth(1)).toContainText(/Top-up\s*\+\$20\.00\s*\$20\.91\s*Paid\s*Test mode/);
  const ledger = page.getByRole('table', { name: 'Ledger' });
  await expect(ledger.getByRole('row').nth(1)).toContainText(/Top-up\s*1\s*\+\$20\.00/);
  // The operator is offered every kind, the operator-only ones included.
  await expect(page.getByRole('combobox', { name: 'Kind' }).getByRole('option')).toHaveText(allKinds);
  await expect(page.getByRole('group', { name: 'By kind' })).toContainText('Own-key overage');
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('session');
  await expect(page.getByText('No entries of kind Sessions')).toBeVisible();
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('all');
  await expect(ledger.getByRole('row')).toHaveCount(2);
  await snap(page, 'billing-paid');

  await payments.getByRole('link', { name: 'Receipt for the top-up of $20.00' }).click();
  await page.waitForURL('**/billing/receipts/**');
  const receipt = page.getByRole('article', { name: 'Receipt' });
  await expect(receipt.getByRole('heading', { level: 1 })).toHaveText('Receipt');
  await expect(receipt).toContainText(name);
  await expect(receipt.getByRole('table', { name: 'Amounts' })).toContainText(
    /wallet credit\s*\$20\.00.*Card processing fee\s*\$0\.91.*Total paid\s*\$20\.91/s,
  );
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await snap(page, 'billing-receipt');

  // A reference that is not one of this user's payments is not found.
  await page.goto('/billing/receipts/not-a-payment');
  await expect(page.getByText('Receipt not found')).toBeVisible();
});

test('a member may not top up; the operator grants credits and suspends, and the workspace sees both', async ({ page, browser, request }) => {
  const owner = { name: 'Wanda Walletowner', email: uniqueEmail('wallet-owner') };
  await signUp(page, owner);
  const { page: member } = await inviteAndJoin(page, browser, request, { name: 'Milo Member', email: uniqueEmail('wallet-member'), role: 'member' });

  await sidebar(member).getByRole('link', { name: 'Billing' }).click();
  await expect(member.getByRole('heading', { level: 1 })).toHaveText('Billing');
  await expect(wallet(member).getByRole('button', { name: 'Top up' })).toBeDisabled();
  await expect(wallet(member)).toContainText("Only the workspace's owners and admins can add money to the wallet");
  // The server says the same.
  const refused = await member.evaluate(async () => {
    const response = await fetch('/v1/billing/checkout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ topupUsdCents: 2000 }),
    });
    return { status: response.status, error: ((await response.json()) as { error: unknown }).error };
  });
  expect(refused).toEqual({ status: 403, error: 'forbidden' });

  const operator = await newPage(browser);
  await signInAsOperator(operator);
  await sidebar(operator).getByRole('link', { name: 'Workspaces' }).click();
  await expect(operator.getByRole('heading', { level: 1 })).toHaveText('Workspaces');
  await operator.getByLabel('Search workspaces').fill(owner.email);
  const rows = operator.getByRole('table', { name: 'Workspaces' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(owner.email);
  const workspace = workspaceNameOf(owner.name);
  await rows
    .nth(1)
    .getByRole('button', { name: `Grant credits to ${workspace}` })
    .click();
  const grant = operator.getByRole('dialog', { name: `Grant credits to ${workspace}` });
  await grant.getByLabel('Amount (USD)').fill('12.50');
  await grant.getByLabel('Note').fill('pilot credit');
  await grant.getByRole('button', { name: 'Grant $12.50' }).click();
  await expect(grant).toBeHidden();
  await expect(rows.nth(1)).toContainText(/\$12\.50\s*Paid/);

  await rows
    .nth(1)
    .getByRole('button', { name: `Suspend ${workspace}` })
    .click();
  const confirm = operator.getByRole('dialog', { name: `Suspend ${workspace}?` });
  await confirm.getByRole('button', { name: 'Suspend' }).click();
  await expect(rows.nth(1)).toContainText('Suspended');
  await snap(operator, 'operator-workspaces');

  await member.reload();
  await expect(wallet(member).getByTestId('wallet-balance')).toHaveText('$12.50');
  await expect(wallet(member)).toContainText('Paid');
  await expect(member.getByRole('alert').filter({ hasText: 'This workspace is suspended' })).toBeVisible();
  await expect(member.getByRole('table', { name: 'Ledger' }).getByRole('row').nth(1)).toContainText(/Credit grant\s*1\s*\+\$12\.50/);
  // A customer's workspace is never charged own-key overage or a reseller's share: not offered here.
  await expect(member.getByRole('combobox', { name: 'Kind' }).getByRole('option')).toHaveText(allKinds.filter((k) => !operatorOnlyKinds.includes(k)));
  const byKind = member.getByRole('group', { name: 'By kind' });
  await expect(byKind).toContainText('Credit grant');
  for (const kind of operatorOnlyKinds) await expect(byKind).not.toContainText(kind);
  await snap(member, 'billing-member');

  await rows
    .nth(1)
    .getByRole('button', { name: `Lift suspension of ${workspace}` })
    .click();
  await operator
    .getByRole('dialog', { name: `Lift the suspension of ${workspace}?` })
    .getByRole('button', { name: 'Unsuspend' })
    .click();
  await expect(rows.nth(1)).not.toContainText('Suspended');
  await member.reload();
  await expect(wallet(member).getByTestId('wallet-balance')).toHaveText('$12.50');
  await expect(member.getByText('This workspace is suspended')).toHaveCount(0);

  await operator.context().close();
  await member.context().close();
});
