// Who may call what, for every /v1 and /api endpoint of the web process, derived from the
// declarations (lib/<domain>/endpoints.ts) the routes are served from: 401 without a credential or
// with a bad one, 403 for a member on owner/admin endpoints (and an admin on owner ones), 403
// `cookie_required` for a bearer on dashboard-only ones, 403 for anyone but the operator on the
// operator's, `not_a_member` for another workspace in X-Workspace-Id, 404 for another workspace's
// router in X-Router-Id and for another workspace's resource in the path. A new endpoint is in
// the matrix as soon as it is declared; one with a path parameter must say which resource it names.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { DASHBOARD_OPERATIONS, OPERATIONS } from '../../lib/openapi/operations';
import type { OperationSpec } from '../../lib/openapi/operation';
import { call, expectOk, newUser, signIn, type Auth, type Res, type TestUser } from '../support/api';
import { randomLoopback } from '../support/connect';
import { seedMember, seedProfile, seedProvider, seedRecording, seedSession, seedTrace } from '../support/seed';

const WEB_OPERATIONS = [...OPERATIONS.filter((op) => !op.proxy), ...DASHBOARD_OPERATIONS];
const signedIn = (op: OperationSpec) => op.auth === 'account' || op.auth === 'cookie';
const scopeOf = (op: OperationSpec) => op.scope ?? 'workspace';
const label = (op: OperationSpec) => `${op.method.toUpperCase()} ${op.path}`;

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let stranger: TestUser;
let ownerCookie: Auth;
/** The stranger's resources, by the path parameter that names them. */
let theirs: Record<string, string>;

/**
 * Paths whose parameters do not name a workspace's resource, and what answers for them instead
 * (each proven where it says).
 */
const NOT_A_RESOURCE: Record<string, string> = {
  'GET /v1/invitations/{id}/lookup': "the id is the link's secret: anyone with the link reads it (invitations.test)",
  'POST /v1/invitations/{id}/accept': "the link's secret; someone else's invitation is 403 (invitations.test)",
  'POST /v1/invitations/{id}/decline': "the link's secret; someone else's invitation is 403 (invitations.test)",
  'PATCH /v1/admin/workspaces/{id}': 'any workspace, for the operator only (403 for anyone else: the operator test below)',
  'POST /v1/admin/workspaces/{id}/credits': 'any workspace, for the operator only (403 for anyone else: the operator test below)',
  'GET /v1/billing/transactions/{providerTxnId}': "another workspace's checkout is 404 (billing-checkout.test: the outsider's read)",
  'GET /api/billing/test-checkout/{id}': "a test top-up, for the operator or its workspace's members (billing-checkout.test)",
  'POST /api/billing/test-checkout/{id}/cancel': "a test top-up, for the operator or its workspace's members (billing-checkout.test)",
  'POST /api/billing/test-checkout/{id}/confirm': 'a test top-up, for the operator only (billing-checkout.test)',
};

before(async () => {
  [owner, admin, member, stranger] = await Promise.all([newUser('am-owner'), newUser('am-admin'), newUser('am-member'), newUser('am-stranger')]);
  await Promise.all([seedMember(owner.workspaceId, admin.userId, 'admin'), seedMember(owner.workspaceId, member.userId, 'member')]);
  const [ownerSession, strangerSession] = await Promise.all([signIn(owner.email), signIn(stranger.email)]);
  ownerCookie = ownerSession;
  const strangers = { auth: { token: stranger.token } };
  const session = await seedSession(stranger.workspaceId, stranger.routerId);
  const [provider, profile, recording, trace] = await Promise.all([
    seedProvider(stranger.workspaceId, stranger.routerId, { url: 'ws://127.0.0.1:9/devtools/browser/x' }),
    seedProfile(stranger.workspaceId),
    seedRecording(session),
    seedTrace(session),
  ]);
  const [webhook, key, invitation] = await Promise.all([
    create('createWebhook', strangers),
    create('createRouterKey', { auth: { token: stranger.token }, headers: { 'x-router-id': stranger.routerId } }),
    create('createInvitation', { auth: strangerSession }),
  ]);
  const token = expectOk(await call('GET', '/v1/access-tokens', strangers)).items[0];
  theirs = {
    routers: stranger.routerId,
    providers: provider.slug,
    profiles: profile.slug,
    sessions: session.id,
    replays: recording.id,
    inspections: trace.id,
    webhooks: webhook.id,
    'api-keys': key.id,
    invitations: invitation.id,
    'access-tokens': token.id,
    members: stranger.userId,
  };
});

/** One of the stranger's resources, made through the endpoint that declares it, with its example body. */
async function create(operationId: string, options: { auth: Auth; headers?: Record<string, string> }) {
  const op = WEB_OPERATIONS.find((o) => o.operationId === operationId)!;
  return expectOk(await call(op.method.toUpperCase(), op.path, { ...options, body: op.bodyExample }), 201);
}

/** The error code of either envelope (the billing endpoints' is a bare string). */
const codeOf = (res: Res) => (typeof res.body?.error === 'string' ? res.body.error : res.body?.error?.code);

function expectRefusal(res: Res, status: number, code: string, op: OperationSpec, why: string) {
  assert.equal(res.body?.ok, false, `${label(op)} ${why}: ${res.status} ${JSON.stringify(res.body)}`);
  assert.deepEqual([res.status, codeOf(res)], [status, code], `${label(op)} ${why}: ${JSON.stringify(res.body)}`);
}

/** The path with each parameter filled (`x` unless given), and the declaration's example body. */
function request(op: OperationSpec, values: Record<string, string> = {}) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'x'));
  return { path, body: op.body ? (op.bodyExample ?? {}) : undefined };
}

/**
 * One call in the owner's workspace and router unless `headers` say otherwise (the router in a
 * header wins over an example body's `routerInstanceId`).
 */
async function send(op: OperationSpec, auth: Auth, options: { values?: Record<string, string>; headers?: Record<string, string>; localAddress?: string } = {}) {
  const { path, body } = request(op, options.values);
  const headers = { 'x-workspace-id': owner.workspaceId, 'x-router-id': owner.routerId, ...options.headers };
  return call(op.method.toUpperCase(), path, { auth, body, headers, localAddress: options.localAddress });
}

/** The caller's credential for an endpoint: a dashboard session where only one will do. */
const credentialOf = (op: OperationSpec, user: TestUser, cookie?: Auth): Auth => (op.auth === 'cookie' && cookie ? cookie : { token: user.token });

test('every signed-in endpoint: 401 without a credential, and with a token that is not one', async () => {
  const address = randomLoopback();
  await Promise.all(
    WEB_OPERATIONS.filter(signedIn).map(async (op) => {
      expectRefusal(await send(op, undefined, { localAddress: address }), 401, 'unauthenticated', op, 'without a credential');
      expectRefusal(await send(op, { token: 'acct_not-a-real-token' }, { localAddress: address }), 401, 'unauthenticated', op, 'with a bad token');
    }),
  );
});

test('every owner/admin endpoint: 403 for a member; every owner endpoint: 403 for an admin too', async () => {
  const guarded = WEB_OPERATIONS.filter((op) => op.role);
  assert.ok(guarded.length >= 30);
  await Promise.all(
    guarded.map(async (op) => {
      expectRefusal(await send(op, { token: member.token }), 403, 'forbidden', op, 'for a member');
      if (op.role === 'owner') expectRefusal(await send(op, { token: admin.token }), 403, 'forbidden', op, 'for an admin');
    }),
  );
});

test("every dashboard-only endpoint: a bearer is 403 cookie_required, even the owner's", async () => {
  const cookieOnly = WEB_OPERATIONS.filter((op) => op.auth === 'cookie');
  assert.ok(cookieOnly.length >= 8);
  await Promise.all(cookieOnly.map(async (op) => expectRefusal(await send(op, { token: owner.token }), 403, 'cookie_required', op, 'with a bearer')));
});

test("every operator endpoint: 403 for anyone but the installation's operator, a workspace owner included", async () => {
  const operators = WEB_OPERATIONS.filter((op) => op.operator);
  assert.ok(operators.length >= 5);
  await Promise.all(
    operators.map(async (op) => {
      expectRefusal(await send(op, { token: owner.token }, { values: { id: stranger.workspaceId } }), 403, 'forbidden', op, 'for a workspace owner');
      expectRefusal(await send(op, ownerCookie, { values: { id: stranger.workspaceId } }), 403, 'forbidden', op, 'for a dashboard session');
    }),
  );
});

test('every workspace endpoint: another workspace in X-Workspace-Id is not_a_member', async () => {
  const headers = { 'x-workspace-id': stranger.workspaceId };
  await Promise.all(
    WEB_OPERATIONS.filter((o) => signedIn(o) && scopeOf(o) !== 'none').map(async (op) => {
      expectRefusal(await send(op, credentialOf(op, owner, ownerCookie), { headers }), 403, 'not_a_member', op, "with another workspace's id");
    }),
  );
});

test("every router endpoint: another workspace's router is 404, in X-Router-Id or routerInstanceId", async () => {
  const routed = WEB_OPERATIONS.filter((op) => scopeOf(op) === 'router');
  assert.ok(routed.length > 15);
  await Promise.all(
    routed.map(async (op) => {
      expectRefusal(
        await send(op, credentialOf(op, owner, ownerCookie), { headers: { 'x-router-id': stranger.routerId } }),
        404,
        'not_found',
        op,
        "with another workspace's router",
      );
      const { path, body } = request(op);
      const viaQuery = await call(op.method.toUpperCase(), `${path}?routerInstanceId=${stranger.routerId}`, { auth: { token: owner.token }, body });
      expectRefusal(viaQuery, 404, 'not_found', op, "with another workspace's router in the query");
    }),
  );
});

test("every endpoint with a resource in its path: another workspace's resource is 404 to the owner", async () => {
  const named = WEB_OPERATIONS.filter((op) => op.path.includes('{') && !(label(op) in NOT_A_RESOURCE));
  await Promise.all(
    named.map(async (op) => {
      const resource = /^\/(?:v1|api)\/(?:workspaces\/current\/)?([a-z-]+)\/\{/.exec(op.path)?.[1];
      assert.ok(resource && theirs[resource], `${label(op)}: say which resource its path names (theirs) or why it names none (NOT_A_RESOURCE)`);
      const values = Object.fromEntries([...op.path.matchAll(/\{(\w+)\}/g)].map((m, i) => [m[1]!, i === 0 ? theirs[resource]! : '1']));
      const res = await send(op, credentialOf(op, owner, ownerCookie), { values });
      expectRefusal(res, 404, 'not_found', op, `with the other workspace's ${resource}`);
    }),
  );
  // Refused, not done: the stranger's webhook and router are still there.
  expectOk(await call('GET', `/v1/webhooks/${theirs.webhooks}`, { auth: { token: stranger.token } }));
  expectOk(await call('GET', `/v1/routers/${theirs.routers}`, { auth: { token: stranger.token } }));
});
