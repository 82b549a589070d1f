import { expect, test, type Page } from '@playwright/test';
import { fillSignUp, inviteAndJoin, linkIn, newPage, signUp, snap, uniqueEmail, waitForMail, workspaceNameOf } from './helpers';

test('the owner invites a second user, who signs up from the e-mail link and joins', async ({ page: owner, browser, request }) => {
  const ownerEmail = uniqueEmail('owner');
  const memberEmail = uniqueEmail('invitee');
  await signUp(owner, { name: 'Olivia Owner', email: ownerEmail });
  const workspace = workspaceNameOf('Olivia Owner');

  const { page: member, link } = await inviteAndJoin(owner, browser, request, { name: 'Ian Invitee', email: memberEmail, role: 'member' });
  await snap(owner, 'members-pending');

  // The invitee is now in the owner's workspace, as a member.
  await expect(member.getByRole('heading', { level: 1 })).toHaveText(workspace);
  await expect(member.getByRole('button', { name: `Workspace: ${workspace}` })).toBeVisible();
  await expect(member.getByText('Can use and view the workspace')).toBeVisible();

  // The link is used up.
  await member.goto(link);
  await expect(member.getByRole('heading', { name: 'This invitation is no longer valid' })).toBeVisible();

  await owner.goto('/members');
  const row = owner.getByRole('table', { name: 'Members' }).getByRole('row', { name: /Ian Invitee/ });
  await expect(row).toContainText(memberEmail);
  await expect(row).toContainText('Member');
  await expect(owner.getByText('No pending invitations')).toBeVisible();
  await snap(owner, 'members');

  // Now that someone else is in the owner's workspace, the owner cannot delete their account.
  await owner.goto('/account');
  await owner.getByRole('button', { name: 'Delete account' }).click();
  const dialog = owner.getByRole('dialog');
  await dialog.getByLabel(/Type .* to confirm/).fill(ownerEmail);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByRole('alert')).toContainText('You own workspaces with other members');
  await snap(owner, 'delete-account-blocked');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText('Account');
  await member.context().close();
});

test('the invitation page shows the inviter, workspace and role, and sends signed-out visitors through sign-in', async ({ page: owner, browser, request }) => {
  const ownerEmail = uniqueEmail('owner2');
  const inviteeEmail = uniqueEmail('invitee2');
  await signUp(owner, { name: 'Oscar Owner', email: ownerEmail }, '/members');
  const form = owner.getByRole('form', { name: 'Invite someone' });
  await form.getByLabel('E-mail address').fill(inviteeEmail);
  await form.getByLabel('Role').selectOption('admin');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  const link = linkIn(await waitForMail(request, inviteeEmail, /invited you to/), '/invite/');

  const visitor = await newPage(browser);
  await visitor.goto(link);
  await expect(visitor.getByRole('heading', { name: `Join ${workspaceNameOf('Oscar Owner')}` })).toBeVisible();
  const facts = visitor.getByRole('definition');
  await expect(facts.filter({ hasText: 'Oscar Owner' })).toBeVisible();
  await expect(facts.filter({ hasText: 'Admin' })).toBeVisible();
  await expect(facts.filter({ hasText: inviteeEmail })).toBeVisible();
  await snap(visitor, 'invite-signed-out');

  // Someone signed in with another address is told whose invitation it is, and accepting is refused.
  await visitor.getByRole('link', { name: 'Create an account' }).click();
  await fillSignUp(visitor, { name: 'Wrong Person', email: uniqueEmail('wrong') });
  await visitor.waitForURL('**/invite/**');
  await expect(visitor.getByText(`This invitation was sent to ${inviteeEmail}`)).toBeVisible();
  await visitor.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(visitor.getByRole('alert').filter({ hasText: 'This invitation' })).toHaveText(
    `This invitation was sent to another e-mail address; sign in as ${inviteeEmail}`,
  );
  await snap(visitor, 'invite-wrong-user');
  await visitor.context().close();
});

test("the toast says where the invitation e-mail went: the mail server, or the inviter's Outbox", async ({ page: owner, request }) => {
  const inviteeEmail = uniqueEmail('toasted');
  await signUp(owner, { name: 'Tess Owner', email: uniqueEmail('toaster') }, '/members');
  const form = owner.getByRole('form', { name: 'Invite someone' });
  await form.getByLabel('E-mail address').fill(inviteeEmail);
  await form.getByRole('button', { name: 'Send invitation' }).click();
  const toasts = owner.getByRole('status').filter({ hasText: inviteeEmail });
  await expect(toasts).toHaveText(`Invitation e-mailed to ${inviteeEmail}`);
  await waitForMail(request, inviteeEmail, /invited you to/);

  // The test stack always has a mail server; an installation without one answers `outbox`. The
  // real answer is passed through with only that field changed, to see what the page makes of it.
  await owner.route('**/v1/invitations/*/resend', async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    await route.fulfill({ response, json: { ...json, data: { ...json.data, delivery: 'outbox' } } });
  });
  await owner.getByRole('button', { name: `Resend invitation to ${inviteeEmail}` }).click();
  await expect(toasts.filter({ hasText: 'Outbox' })).toHaveText(
    `No mail server is configured, so the invitation to ${inviteeEmail} is in the Outbox: copy the link from your Outbox page and pass it on to them.`,
  );
  await snap(owner, 'invitation-in-outbox');
});

/** Makes /v1/me claim `role` in the active workspace, so the page offers what the server must refuse. */
async function pretendRole(page: Page, role: 'admin' | 'owner') {
  await page.route('**/v1/me', async (route) => {
    const response = await route.fetch();
    const json = await response.json();
    json.data.workspaces = json.data.workspaces.map((w: { id: string }) => (w.id === json.data.activeWorkspaceId ? { ...w, role } : w));
    await route.fulfill({ response, json });
  });
}

test('a member sees no owner/admin controls, and the server refuses them with forbidden anyway', async ({ page: owner, browser, request }) => {
  const ownerEmail = uniqueEmail('owner3');
  const memberEmail = uniqueEmail('member3');
  await signUp(owner, { name: 'Nora Owner', email: ownerEmail });
  const { page: member } = await inviteAndJoin(owner, browser, request, { name: 'Max Member', email: memberEmail, role: 'member' });

  await member.goto('/members');
  const members = member.getByRole('table', { name: 'Members' });
  await expect(members).toContainText(ownerEmail);
  await expect(members).toContainText(memberEmail);
  await expect(member.getByText('Only the owner and admins can invite people.')).toBeVisible();
  await expect(member.getByRole('form', { name: 'Invite someone' })).toHaveCount(0);
  await expect(member.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Delete workspace' })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Leave workspace' })).toBeVisible();
  await snap(member, 'members-as-member');
  // The owner, on the same page, has the controls: the check above is about the role.
  await owner.goto('/members');
  await expect(owner.getByRole('form', { name: 'Invite someone' })).toBeVisible();
  await expect(owner.getByRole('button', { name: `Remove ${memberEmail}` })).toBeVisible();
  await expect(owner.getByRole('button', { name: 'Delete workspace' })).toBeVisible();

  // A direct attempt from the member's signed-in browser: same origin, so only the role can refuse it.
  const workspace = await member.evaluate(async () => {
    const me = await (await fetch('/v1/me')).json();
    return me.data.workspaces.find((w: { id: string }) => w.id === me.data.activeWorkspaceId) as { id: string; slug: string; role: string };
  });
  expect(workspace.role).toBe('member');
  const attempts = await member.evaluate(async ({ id, slug }) => {
    const send = async (method: string, path: string, body: unknown) => {
      const response = await fetch(path, { method, headers: { 'Content-Type': 'application/json', 'X-Workspace-Id': id }, body: JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    };
    return {
      invite: await send('POST', '/v1/invitations', { email: 'someone@test.local', role: 'admin' }),
      deleteWorkspace: await send('DELETE', '/v1/workspaces/current', { confirm: slug }),
    };
  }, workspace);
  expect(attempts.invite).toEqual({
    status: 403,
    body: { ok: false, error: { code: 'forbidden', message: 'only the workspace owner or an admin can do this' } },
  });
  expect(attempts.deleteWorkspace).toEqual({ status: 403, body: { ok: false, error: { code: 'forbidden', message: 'only the workspace owner can do this' } } });

  // Through the dashboard: a page that wrongly believes the member is an admin (or the owner)
  // offers the controls; the server refuses and the page shows its message.
  await pretendRole(member, 'admin');
  await member.reload();
  const form = member.getByRole('form', { name: 'Invite someone' });
  await form.getByLabel('E-mail address').fill('someone@test.local');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(form.getByRole('alert')).toHaveText('Only the workspace owner or an admin can do this');
  await member.unroute('**/v1/me');
  await pretendRole(member, 'owner');
  await member.reload();
  await member.getByRole('button', { name: 'Delete workspace' }).click();
  const dialog = member.getByRole('dialog');
  await dialog.getByLabel(/Type .* to confirm/).fill(workspace.slug);
  await dialog.getByRole('button', { name: 'Delete workspace' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Only the workspace owner can do this');
  await snap(member, 'forbidden-delete');

  // Nothing happened: no invitation, and the workspace is still there with both people.
  await owner.reload();
  await expect(owner.getByText('No pending invitations')).toBeVisible();
  await expect(owner.getByRole('table', { name: 'Members' })).toContainText(memberEmail);
  await expect(owner.getByRole('heading', { level: 1 })).toHaveText('Members');
  await member.context().close();
});
