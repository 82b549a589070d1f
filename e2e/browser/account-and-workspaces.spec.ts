import { expect, test } from '@playwright/test';
import { newPage, PASSWORD, sidebar, signIn, signInAsOperator, signUp, snap, uniqueEmail, workspaceNameOf } from './helpers';

test('delete the account, sign in again within the window, restore it', async ({ page }) => {
  const email = uniqueEmail('leaver');
  await signUp(page, { name: 'Dana Delete', email });
  await page.goto('/account');
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
  for (const area of ['Overview', 'Routers', 'Sessions', 'Profiles', 'Recordings', 'Traces', 'Webhooks', 'Billing', 'Members', 'Account']) {
    await expect(nav.getByRole('link', { name: new RegExp(`^${area}`) })).toBeVisible();
  }
  await expect(nav.getByRole('link', { name: 'Outbox' })).toHaveCount(0);
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

test('the operator sees the Outbox; anyone else is refused', async ({ page, browser }) => {
  // The billing spec signs in as the operator too: whichever runs first creates the account.
  await signInAsOperator(page);
  await sidebar(page).getByRole('link', { name: 'Outbox' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Outbox');
  await expect(page.getByText('The outbox is empty').or(page.getByRole('table', { name: 'Outbox' }))).toBeVisible();
  await snap(page, 'outbox');

  const other = await newPage(browser);
  await signUp(other, { name: 'Nick Notadmin', email: uniqueEmail('notadmin') });
  await expect(sidebar(other).getByRole('link', { name: 'Outbox' })).toHaveCount(0);
  const refused = await other.evaluate(async () => {
    const response = await fetch('/api/admin/outbox');
    return { status: response.status, body: await response.json() };
  });
  expect(refused).toEqual({ status: 403, body: { ok: false, error: { code: 'forbidden', message: 'only the operator of this installation can read the outbox' } } });
  await other.goto('/outbox');
  await expect(other.getByText('Only the operator of this installation can read the outbox')).toBeVisible();
  await other.context().close();
});
