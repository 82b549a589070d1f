// User and workspaces: list, switch, members, leave, remove, delete; X-Workspace-Id rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, call, expectError, expectOk, newUser, signIn } from '../support/api';

test('GET /v1/workspaces lists every membership with its role', async () => {
  const owner = await newUser('wsowner');
  const guest = await newUser('wsguest');
  await addMember(owner.workspaceId, guest.userId, 'admin');
  const list = expectOk(await call('GET', '/v1/workspaces', { auth: { token: guest.token } }));
  assert.deepEqual(
    list.items.map((w: { id: string; role: string }) => [w.id, w.role]),
    [
      [guest.workspaceId, 'owner'],
      [owner.workspaceId, 'admin'],
    ],
  );
  for (const w of list.items) assert.deepEqual(Object.keys(w).sort(), ['id', 'name', 'role', 'slug']);
  assert.equal(list.total, 2, 'a list body has its total (spec conventions)');
});

test('X-Workspace-Id selects the workspace; a non-member gets 403 not_a_member', async () => {
  const a = await newUser('xa');
  const b = await newUser('xb');
  const me = expectOk(await call('GET', '/v1/me', { auth: { token: a.token }, headers: { 'x-workspace-id': a.workspaceId } }));
  assert.equal(me.activeWorkspaceId, a.workspaceId);
  expectError(await call('GET', '/v1/me', { auth: { token: a.token }, headers: { 'x-workspace-id': b.workspaceId } }), 403, 'not_a_member');
  expectError(await call('GET', '/v1/workspaces/current/members', { auth: { token: a.token }, headers: { 'x-workspace-id': 'nope' } }), 403, 'not_a_member');
});

test('POST /v1/workspaces/active sets the dashboard workspace; bearer calls ignore it', async () => {
  const owner = await newUser('activeowner');
  const user = await newUser('activeuser');
  await addMember(owner.workspaceId, user.userId, 'member');
  const session = await signIn(user.email);
  expectError(await call('POST', '/v1/workspaces/active', { auth: session, body: {} }), 400, 'validation_error');
  const stranger = await newUser('stranger');
  expectError(await call('POST', '/v1/workspaces/active', { auth: session, body: { workspaceId: stranger.workspaceId } }), 403, 'not_a_member');
  assert.deepEqual(expectOk(await call('POST', '/v1/workspaces/active', { auth: session, body: { workspaceId: owner.workspaceId } })), {
    activeWorkspaceId: owner.workspaceId,
  });
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: session })).activeWorkspaceId, owner.workspaceId);
  assert.equal(expectOk(await call('GET', '/v1/me', { auth: { token: user.token } })).activeWorkspaceId, user.workspaceId, 'bearer: oldest membership');
});

test('members list has the Member shape', async () => {
  const owner = await newUser('mlist');
  const member = await newUser('mlistm');
  await addMember(owner.workspaceId, member.userId, 'member');
  const list = expectOk(
    await call('GET', '/v1/workspaces/current/members', { auth: { token: member.token }, headers: { 'x-workspace-id': owner.workspaceId } }),
  );
  assert.equal(list.items.length, 2);
  assert.deepEqual(Object.keys(list.items[0]).sort(), ['email', 'id', 'image', 'joinedAt', 'name', 'role', 'userId']);
  assert.deepEqual(
    list.items.map((m: { role: string }) => m.role),
    ['owner', 'member'],
  );
});

test('leave: a member can, the owner cannot', async () => {
  const owner = await newUser('leaveo');
  const member = await newUser('leavem');
  await addMember(owner.workspaceId, member.userId, 'member');
  expectError(await call('POST', '/v1/workspaces/current/leave', { auth: { token: owner.token } }), 403, 'forbidden');
  const left = expectOk(
    await call('POST', '/v1/workspaces/current/leave', { auth: { token: member.token }, headers: { 'x-workspace-id': owner.workspaceId } }),
  );
  assert.deepEqual(left, { workspaceId: owner.workspaceId, left: true });
  expectError(await call('GET', '/v1/me', { auth: { token: member.token }, headers: { 'x-workspace-id': owner.workspaceId } }), 403, 'not_a_member');
});

test('remove member: owner/admin with a cookie; the owner cannot be removed; others are not_found', async () => {
  const owner = await newUser('rmo');
  const admin = await newUser('rma');
  const member = await newUser('rmm');
  const outsider = await newUser('rmx');
  await addMember(owner.workspaceId, admin.userId, 'admin');
  await addMember(owner.workspaceId, member.userId, 'member');
  const headers = { 'x-workspace-id': owner.workspaceId };
  const memberSession = await signIn(member.email);
  expectError(await call('DELETE', `/v1/workspaces/current/members/${admin.userId}`, { auth: memberSession, headers }), 403, 'forbidden');
  const adminSession = await signIn(admin.email);
  expectError(await call('DELETE', `/v1/workspaces/current/members/${owner.userId}`, { auth: adminSession, headers }), 403, 'forbidden');
  expectError(await call('DELETE', `/v1/workspaces/current/members/${outsider.userId}`, { auth: adminSession, headers }), 404, 'not_found');
  assert.deepEqual(expectOk(await call('DELETE', `/v1/workspaces/current/members/${member.userId}`, { auth: adminSession, headers })), {
    userId: member.userId,
    removed: true,
  });
  const list = expectOk(await call('GET', '/v1/workspaces/current/members', { auth: { token: owner.token } }));
  assert.deepEqual(list.items.map((m: { userId: string }) => m.userId).sort(), [owner.userId, admin.userId].sort());
});

test('delete workspace: owner, cookie, confirm = slug; everything in it goes', async () => {
  const owner = await newUser('delo');
  const admin = await newUser('dela');
  await addMember(owner.workspaceId, admin.userId, 'admin');
  const me = expectOk(await call('GET', '/v1/me', { auth: { token: owner.token } }));
  const slug = me.workspaces[0].slug;
  const adminSession = await signIn(admin.email);
  expectError(
    await call('DELETE', '/v1/workspaces/current', { auth: adminSession, headers: { 'x-workspace-id': owner.workspaceId }, body: { confirm: slug } }),
    403,
    'forbidden',
  );
  const session = await signIn(owner.email);
  expectError(await call('DELETE', '/v1/workspaces/current', { auth: session, body: {} }), 400, 'validation_error');
  const wrong = await call('DELETE', '/v1/workspaces/current', { auth: session, body: { confirm: 'not-the-slug' } });
  expectError(wrong, 400, 'validation_error');
  assert.match(wrong.body.error.message, /confirm/);
  const deleted = expectOk(await call('DELETE', '/v1/workspaces/current', { auth: session, body: { confirm: slug } }));
  assert.deepEqual(deleted, { id: owner.workspaceId, slug, deleted: true });
  const { db } = await import('../../lib/db');
  assert.equal(await db.router.count({ where: { workspaceId: owner.workspaceId } }), 0);
  assert.equal(await db.routerKey.count({ where: { workspaceId: owner.workspaceId } }), 0);
  const after = expectOk(await call('GET', '/v1/me', { auth: { token: owner.token } }));
  assert.equal(after.activeWorkspaceId, null);
  assert.deepEqual(after.workspaces, []);
});

test('create another workspace (dashboard extension) comes with a default router', async () => {
  const user = await newUser('create');
  const session = await signIn(user.email);
  expectError(await call('POST', '/v1/workspaces', { auth: session, body: { name: '' } }), 400, 'validation_error');
  const ws = expectOk(await call('POST', '/v1/workspaces', { auth: session, body: { name: 'Second' } }), 201);
  assert.equal(ws.role, 'owner');
  const me = expectOk(await call('GET', '/v1/me', { auth: session }));
  assert.equal(me.activeWorkspaceId, ws.id);
  assert.equal(me.routers.length, 1);
});
