// The operator claim link in the browser: a stranger who opens it signed out is sent to sign in
// (or up) and back; confirming makes the account the operator, the operator's page lists the
// claim in its audit log, and the link is spent.
import { expect, test } from '@playwright/test';
import { fillSignUp, sidebar, snap, uniqueEmail } from './helpers';

test('a signed-out visitor signs up from the claim link, comes back, becomes the operator; the link is then spent', async ({ page }) => {
  const { db } = await import('../../lib/db');
  const { newSecret } = await import('../../lib/crypto/secrets');
  // A link as `npm start` issues it (the test stack has an operator, so it issues none itself).
  const claim = newSecret('opc_');
  await db.operatorClaim.create({ data: { tokenHash: claim.hash } });
  const link = `/claim-operator?token=${claim.plaintext}`;
  const email = uniqueEmail('claimer');
  try {
    await page.goto(link);
    await page.waitForURL('**/sign-in?callbackUrl=*');
    await page.getByRole('link', { name: 'Create one' }).click();
    await fillSignUp(page, { name: 'Cleo Claimer', email });
    await page.waitForURL(`**${link}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Become the operator');
    await expect(page.getByText(`Signed in as ${email}. The link works once.`)).toBeVisible();
    await snap(page, 'claim-operator');
    await page.getByRole('button', { name: 'Become the operator' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are the operator');

    await page.getByRole('link', { name: "Open the operator's workspaces" }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Workspaces');
    await expect(sidebar(page).getByRole('link', { name: 'Workspaces' })).toBeVisible();
    const activity = page.getByRole('table', { name: 'Operator activity' });
    await expect(activity.getByRole('row').filter({ hasText: 'Claimed the operator rights' }).filter({ hasText: email }).first()).toBeVisible();
    await snap(page, 'operator-activity');

    // Taken away from the shell, the spent link does not give it back.
    await db.user.update({ where: { email }, data: { operatorSince: null } });
    await page.goto(link);
    await page.getByRole('button', { name: 'Become the operator' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This link did not work' })).toContainText('this claim link is not valid');
  } finally {
    await db.user.updateMany({ where: { email }, data: { operatorSince: null } });
  }
});
