import { expect, test } from '@playwright/test';
import type { Mail } from '../../lib/mail/mailer';
import { newPage, PASSWORD, sidebar, signIn, signInAsOperator, signUp, snap, uniqueEmail, webUrl, workspaceNameOf } from './helpers';

test('delete the account, sign in again within the window, restore it', async ({ page }) => {
  const email = uniqueEmail('leaver');
  await signUp(page, { name: 'Dana Delete', email }, '/account');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog');
  const confirm = dialog.getByRole('button', { name: 'Delete my account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type .* to confirm/).fill(email);
  await confirm.click();

  await page.waitForURL('**/sign-in?deleted=1');
  await expect(page.getByText('Your account is scheduled for deletion')).toBeVisible();
  await signIn(page, email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Your account is scheduled for deletion' })).toBeVisible();
  await expect(sidebar(page)).toHaveCount(0);
  await snap(page, 'restore-account');
  await page.getByRole('button', { name: 'Restore my account' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(workspaceNameOf('Dana Delete'));
  await expect(sidebar(page)).toBeVisible();
});

test('create a second workspace, switch between them, delete it', async ({ page }) => {
  await signUp(page, { name: 'Wendy Workspaces', email: uniqueEmail('switch') });
  const first = workspaceNameOf('Wendy Workspaces');

  await page.getByRole('button', { name: `Workspace: ${first}` }).click();
  await page.getByRole('menuitem', { name: 'Create workspace' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Workspace name').fill('Side Project');
  await dialog.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Side Project');

  await page.getByRole('button', { name: 'Workspace: Side Project' }).click();
  await expect(page.getByRole('menuitem')).toHaveCount(3);
  await snap(page, 'workspace-switcher');
  await page.getByRole('menuitem', { name: first }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first);

  // Every area is in the sidebar.
  const nav = sidebar(page);
  for (const area of ['Overview', 'Routers', 'Sessions', 'Profiles', 'Recordings', 'Traces', 'Webhooks', 'Billing', 'Members', 'Account', 'Outbox']) {
    await expect(nav.getByRole('link', { name: new RegExp(`^${area}`) })).toBeVisible();
  }
  await nav.getByRole('link', { name: /^Traces/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Traces');

  // Delete the second workspace from its Members page (owner only, typed slug).
  await page.getByRole('button', { name: `Workspace: ${first}` }).click();
  await page.getByRole('menuitem', { name: 'Side Project' }).click();
  await nav.getByRole('link', { name: 'Members' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Members');
  await expect(page.getByRole('button', { name: 'Workspace: Side Project' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete workspace' }).click();
  const confirm = page.getByRole('dialog');
  const slug = (await confirm.locator('label span').textContent()) ?? '';
  expect(slug).toMatch(/^side-project-/);
  await confirm.getByLabel(/Type .* to confirm/).fill(slug);
  await confirm.getByRole('button', { name: 'Delete workspace' }).click();
  await page.waitForURL('**/overview');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first);
  await page.getByRole('button', { name: `Workspace: ${first}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Side Project' })).toHaveCount(0);
});

/**
 * Keeps a mail in the Outbox as an installation without a mail server does: the stack has one, so
 * the product's mailer runs here, in the test's process, with SMTP_URL unset, against its database.
 */
async function keepMail(mail: Mail): Promise<void> {
  const { sendMail } = await import('../../lib/mail/mailer');
  const { setEnv } = await import('../../lib/config/testing');
  const restore = setEnv({ SMTP_URL: undefined });
  try {
    expect(await sendMail(mail)).toBe('outbox');
  } finally {
    restore();
  }
}

test("everyone reads their own mail in the Outbox; the operator sees others' listed without its content", async ({ page, browser }) => {
  const email = uniqueEmail('outboxer');
  const stranger = uniqueEmail('stranger');
  await signUp(page, { name: 'Olive Outbox', email });
  await keepMail({ to: email, subject: 'Kept for Olive', text: `Hello Olive,\n\nOpen ${webUrl}/account to see it.\n` });
  await keepMail({ to: stranger, subject: 'Kept for a stranger', text: `Secret link: ${webUrl}/reset-password?token=not-yours\n` });

  await sidebar(page).getByRole('link', { name: 'Outbox' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Outbox');
  await expect(
    page.getByText(
      'Mail this installation wrote instead of sending (no SMTP server configured, or sending failed): the mail sent to you, and the invitations you sent.',
      { exact: true },
    ),
  ).toBeVisible();
  const table = page.getByRole('table', { name: 'Outbox' });
  await expect(table.getByRole('row')).toHaveCount(2); // the header and Olive's mail: nobody else's
  await page.getByRole('button', { name: `Open mail to ${email}: Kept for Olive` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('link', { name: `${webUrl}/account` })).toHaveAttribute('href', `${webUrl}/account`);
  await expect(dialog).toContainText("Links in this mail act for you: don't pass them on.");
  await snap(page, 'outbox');

  const operator = await newPage(browser);
  // The billing spec signs in as the operator too: whichever runs first creates the account.
  await signInAsOperator(operator);
  await operator.goto('/outbox');
  await expect(operator.getByText("As the operator you also see that other people's mail was written, without its content")).toBeVisible();
  for (const [to, subject] of [
    [email, 'Kept for Olive'],
    [stranger, 'Kept for a stranger'],
  ] as const) {
    const row = operator.getByRole('row').filter({ hasText: subject });
    await expect(row).toContainText(to);
    await expect(row).toContainText('The content is only shown to its recipient');
    await expect(row.getByRole('button', { name: /^Open mail/ })).toHaveCount(0);
  }
  await expect(operator.getByText('not-yours')).toHaveCount(0);
  await snap(operator, 'outbox-operator');
  await operator.context().close();
});
