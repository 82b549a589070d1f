// Top-ups in the built-in test mode (the shared test stack has no STRIPE_SECRET_KEY), over real
// HTTP: POST /v1/billing/checkout's validation, roles and quote; the transactions endpoints; the
// test checkout page's confirm (instance operator only: ADMIN_EMAILS=operator@test.local) and
// cancel, which run a signed Stripe-shaped event through POST /v1/billing/webhook's own path and
// credit the wallet exactly once; the webhook's refusal of unsigned and badly signed bodies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addMember, call, expectError, expectOk, newUser, PASSWORD, signIn, WEB, type Auth, type Res, type TestUser } from '../support/api';
import { db } from '../../lib/db';
import { balanceOf } from '../../lib/billing/ledger';
import { feeTable, quoteTopup } from '../../lib/billing/fees';
import { signatureHeader } from '../../lib/billing/processors/signature';
import { testModeWebhookSecret } from '../../lib/billing/processors/test-mode';

const OPERATOR = 'operator@test.local';
let operator: { cookie: string };
let createdOperatorId: string | null = null;
let owner: TestUser;
let ownerCookie: { cookie: string };
let memberUser: TestUser;
let memberCookie: { cookie: string };
let outsider: TestUser;
let outsiderCookie: { cookie: string };

function expectBillingError(res: Res, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.ok, false);
  assert.equal(res.body?.error, code, `error is the plain string ${code}: ${JSON.stringify(res.body)}`);
  assert.equal(typeof res.body?.message, 'string');
}

const checkout = (auth: Auth, body: unknown) => call('POST', '/v1/billing/checkout', { auth, body });
const testCheckout = (auth: Auth, id: string, action?: 'confirm' | 'cancel') =>
  call(action ? 'POST' : 'GET', `/api/billing/test-checkout/${id}${action ? `/${action}` : ''}`, { auth });

async function walletState(workspaceId: string) {
  const [balance, entries, ledger] = await Promise.all([
    balanceOf(db, workspaceId),
    db.walletEntry.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } }),
    db.ledgerEntry.findMany({ where: { workspaceId } }),
  ]);
  return { balance, entries, ledger };
}

before(async () => {
  const existing = await db.user.findUnique({ where: { email: OPERATOR } });
  if (!existing) {
    const { seedUser } = await import('../../lib/users/seed-user');
    createdOperatorId = (await seedUser({ email: OPERATOR, password: PASSWORD, name: 'Test Operator' })).userId;
  }
  [owner, memberUser, outsider] = await Promise.all([newUser('pay-owner'), newUser('pay-member'), newUser('pay-outsider')]);
  await addMember(owner.workspaceId, memberUser.userId, 'member');
  [operator, ownerCookie, memberCookie, outsiderCookie] = await Promise.all([
    signIn(OPERATOR),
    signIn(owner.email),
    signIn(memberUser.email),
    signIn(outsider.email),
  ]);
});

after(async () => {
  if (createdOperatorId) {
    await db.workspace.deleteMany({ where: { memberships: { some: { userId: createdOperatorId, role: 'owner' } } } });
    await db.user.delete({ where: { id: createdOperatorId } });
  }
});

describe('POST /v1/billing/checkout', () => {
  test('refuses amounts outside 500..2,500,000, non-integers, strings, a missing field and unknown fields with bad_request', async () => {
    const auth = { token: owner.token };
    for (const body of [
      { topupUsdCents: 499 },
      { topupUsdCents: 2_500_001 },
      { topupUsdCents: '1000' },
      { topupUsdCents: 500.5 },
      {},
      { topupUsdCents: 1000, extra: 1 },
      { topupUsdCents: null },
    ]) {
      const res = await checkout(auth, body);
      expectBillingError(res, 400, 'bad_request');
      assert.ok(Array.isArray(res.body.details) && res.body.details.length > 0, `details for ${JSON.stringify(body)}`);
    }
    const missing = await checkout(auth, {});
    assert.equal(missing.body.details[0].path, 'topupUsdCents');
    expectBillingError(
      await call('POST', '/v1/billing/checkout', { auth, rawBody: 'not json', headers: { 'content-type': 'application/json' } }),
      400,
      'bad_request',
    );
    assert.equal(await db.transaction.count({ where: { workspaceId: owner.workspaceId } }), 0, 'nothing was written');
  });

  test('needs credentials (401) and the owner or admin role (a member gets forbidden)', async () => {
    expectBillingError(await checkout(undefined, { topupUsdCents: 500 }), 401, 'unauthenticated');
    expectBillingError(await checkout({ token: 'acct_not-a-token' }, { topupUsdCents: 500 }), 401, 'unauthenticated');
    expectBillingError(
      await call('POST', '/v1/billing/checkout', {
        auth: { token: memberUser.token },
        body: { topupUsdCents: 500 },
        headers: { 'x-workspace-id': owner.workspaceId },
      }),
      403,
      'forbidden',
    );
  });

  test('quotes the card fee grossed up and returns the test-mode checkout page; the pending transaction is listed', async () => {
    const data = expectOk(await checkout({ token: owner.token }, { topupUsdCents: 500 }));
    assert.deepEqual(
      { creditCents: data.creditCents, feeCents: data.feeCents, chargeCents: data.chargeCents },
      { creditCents: 500, feeCents: 46, chargeCents: 546 },
    );
    assert.deepEqual({ creditCents: data.creditCents, feeCents: data.feeCents, chargeCents: data.chargeCents }, quoteTopup(500, feeTable().card));
    assert.equal(data.checkoutUrl, `${WEB}/billing/test-checkout/${data.id}`);
    const big = expectOk(await checkout({ token: owner.token }, { topupUsdCents: 2_500_000 }));
    assert.deepEqual([big.creditCents, big.chargeCents - big.feeCents], [2_500_000, 2_500_000]);
    assert.deepEqual({ creditCents: big.creditCents, feeCents: big.feeCents, chargeCents: big.chargeCents }, quoteTopup(2_500_000, feeTable().card));

    const list = expectOk(
      await call('GET', '/v1/billing/transactions', { auth: { token: memberUser.token }, headers: { 'x-workspace-id': owner.workspaceId } }),
    );
    assert.deepEqual(
      list.items.map((t: { providerTxnId: string }) => t.providerTxnId),
      [big.providerTxnId, data.providerTxnId],
      'newest first, any member reads',
    );
    assert.equal(list.total, 2);
    const one = list.items[1];
    assert.deepEqual(
      {
        provider: one.provider,
        kind: one.kind,
        status: one.status,
        amountUsdCents: one.amountUsdCents,
        receiptUrl: one.receiptUrl,
        paidAt: one.paidAt,
        refundedAt: one.refundedAt,
        id: one.id,
      },
      { provider: 'test', kind: 'topup', status: 'pending', amountUsdCents: 500, receiptUrl: null, paidAt: null, refundedAt: null, id: data.id },
    );
    assert.ok(!Number.isNaN(Date.parse(one.createdAt)));
    assert.deepEqual(expectOk(await call('GET', `/v1/billing/transactions/${data.providerTxnId}`, { auth: { token: owner.token } })), one);
    // Another workspace's transaction does not exist for anyone else.
    expectBillingError(await call('GET', `/v1/billing/transactions/${data.providerTxnId}`, { auth: { token: outsider.token } }), 404, 'not_found');
    expectBillingError(await call('GET', '/v1/billing/transactions/testcs_nothing', { auth: { token: owner.token } }), 404, 'not_found');
    expectBillingError(await call('GET', '/v1/billing/transactions', {}), 401, 'unauthenticated');
    assert.deepEqual(expectOk(await call('GET', '/v1/billing/transactions', { auth: { token: outsider.token } })).items, []);
  });
});

describe('the test checkout page', () => {
  test('the operator confirms once: the wallet is credited once, the top-up is paid with a receipt; confirming again changes nothing', async () => {
    const before = await walletState(owner.workspaceId);
    const started = expectOk(await checkout(ownerCookie, { topupUsdCents: 1_000 }));
    const page = await call('GET', `/billing/test-checkout/${started.id}`, { auth: operator });
    assert.equal(page.status, 200, 'the page renders for the operator');

    const view = expectOk(await testCheckout(operator, started.id));
    assert.deepEqual(
      {
        operator: view.operator,
        canConfirm: view.canConfirm,
        testMode: view.testMode,
        status: view.status,
        creditCents: view.creditCents,
        feeCents: view.feeCents,
        chargeCents: view.chargeCents,
      },
      { operator: true, canConfirm: true, testMode: true, status: 'pending', creditCents: 1_000, feeCents: started.feeCents, chargeCents: started.chargeCents },
    );
    const ownerView = expectOk(await testCheckout(ownerCookie, started.id));
    assert.deepEqual([ownerView.operator, ownerView.canConfirm, ownerView.canCancel], [false, false, true], 'the owner sees it but cannot confirm');
    expectBillingError(await testCheckout(outsiderCookie, started.id), 404, 'not_found');

    // The operator's pages list it, with its page, until it is confirmed; nobody else reads that list.
    const waiting = () => call('GET', '/v1/admin/test-checkouts', { auth: operator });
    const listed = expectOk(await waiting()).items.find((c: { id: string }) => c.id === started.id);
    assert.deepEqual(listed && { name: listed.workspaceName, credit: listed.creditCents, path: listed.path }, {
      name: (await db.workspace.findUniqueOrThrow({ where: { id: owner.workspaceId } })).name,
      credit: 1_000,
      path: `/billing/test-checkout/${started.id}`,
    });
    expectError(await call('GET', '/v1/admin/test-checkouts', { auth: ownerCookie }), 403, 'forbidden');
    expectError(await call('GET', '/v1/admin/test-checkouts'), 401, 'unauthenticated');

    // The operator is in a workspace of their own: back to this page (which says whose wallet), not their Billing.
    const confirmed = expectOk(await testCheckout(operator, started.id, 'confirm'));
    assert.deepEqual(confirmed, { status: 'paid', redirectTo: `/billing/test-checkout/${started.id}` });
    assert.equal(
      expectOk(await waiting()).items.some((c: { id: string }) => c.id === started.id),
      false,
    );
    const again = expectOk(await testCheckout(operator, started.id, 'confirm'));
    assert.equal(again.status, 'paid');

    const after = await walletState(owner.workspaceId);
    assert.equal(after.balance - before.balance, 1_000n * 1_000n, 'credited 1,000 cents once, in millicents');
    const topups = after.entries.filter((e) => e.cause === `topup:${started.id}`);
    assert.equal(topups.length, 1);
    assert.deepEqual([topups[0]!.kind, topups[0]!.amountMillicents, topups[0]!.transactionId], ['topup', 1_000_000n, started.id]);
    const ledger = after.ledger.filter((l) => l.kind === 'topup');
    assert.equal(
      ledger.reduce((sum, l) => sum + l.totalMillicents, 0n),
      1_000_000n,
    );
    assert.equal(
      ledger.reduce((sum, l) => sum + l.count, 0),
      1,
    );
    assert.equal(
      after.balance,
      after.entries.reduce((sum, e) => sum + e.amountMillicents, 0n),
      'balance = sum of entries',
    );

    const txn = expectOk(await call('GET', `/v1/billing/transactions/${started.providerTxnId}`, { auth: { token: owner.token } }));
    assert.equal(txn.status, 'paid');
    assert.equal(txn.receiptUrl, `${WEB}/billing/receipts/${started.id}`);
    assert.ok(txn.paidAt && Date.parse(txn.paidAt) >= Date.parse(txn.createdAt));
    assert.equal(await db.processorEvent.count({ where: { id: `evt_test_${started.id}_paid` } }), 1);
    assert.equal(expectOk(await testCheckout(operator, started.id)).canConfirm, false);
  });

  test('nobody but the operator can confirm: owner, admin and member get forbidden, an outsider not_found, and no money moves', async () => {
    const admin = await newUser('pay-admin');
    await addMember(owner.workspaceId, admin.userId, 'admin');
    const started = expectOk(await checkout({ token: owner.token }, { topupUsdCents: 700 }));
    const before = await balanceOf(db, owner.workspaceId);
    expectBillingError(await testCheckout(ownerCookie, started.id, 'confirm'), 403, 'forbidden');
    expectBillingError(await testCheckout({ token: owner.token }, started.id, 'confirm'), 403, 'forbidden');
    expectBillingError(await testCheckout({ token: admin.token }, started.id, 'confirm'), 403, 'forbidden');
    expectBillingError(await testCheckout(memberCookie, started.id, 'confirm'), 403, 'forbidden');
    expectBillingError(await testCheckout(outsiderCookie, started.id, 'confirm'), 404, 'not_found');
    expectBillingError(await call('POST', `/api/billing/test-checkout/${started.id}/confirm`, {}), 401, 'unauthenticated');
    // A cookie session's POST from another site is refused too.
    expectBillingError(await testCheckout({ ...operator, origin: 'https://evil.example' }, started.id, 'confirm'), 403, 'forbidden');
    assert.equal(await balanceOf(db, owner.workspaceId), before);
    const row = await db.transaction.findUniqueOrThrow({ where: { id: started.id } });
    assert.equal(row.status, 'pending');
    // The member's view says the operator must confirm.
    const view = expectOk(await testCheckout(memberCookie, started.id));
    assert.deepEqual([view.operator, view.canConfirm], [false, false]);
  });

  test('cancel expires the checkout (any member of the workspace may), and it cannot be confirmed afterwards', async () => {
    const started = expectOk(await checkout({ token: owner.token }, { topupUsdCents: 800 }));
    const before = await balanceOf(db, owner.workspaceId);
    expectBillingError(await testCheckout(outsiderCookie, started.id, 'cancel'), 404, 'not_found');
    // The member is in a workspace of their own: back to this page; the owner, in this one, to Billing.
    assert.deepEqual(expectOk(await testCheckout(memberCookie, started.id, 'cancel')), {
      status: 'expired',
      redirectTo: `/billing/test-checkout/${started.id}`,
    });
    const another = expectOk(await checkout({ token: owner.token }, { topupUsdCents: 800 }));
    assert.deepEqual(expectOk(await testCheckout(ownerCookie, another.id, 'cancel')), { status: 'expired', redirectTo: '/billing?checkout=cancelled' });
    expectBillingError(await testCheckout(operator, started.id, 'confirm'), 409, 'conflict');
    assert.equal(await balanceOf(db, owner.workspaceId), before);
    assert.equal(expectOk(await call('GET', `/v1/billing/transactions/${started.providerTxnId}`, { auth: { token: owner.token } })).status, 'expired');
  });
});

describe('POST /v1/billing/webhook in test mode', () => {
  const event = (transactionId: string, providerTxnId: string, workspaceId: string, eventId: string) =>
    JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: providerTxnId,
          object: 'checkout.session',
          payment_status: 'paid',
          client_reference_id: workspaceId,
          metadata: { transactionId, workspaceId },
          payment_intent: `testpi_${transactionId}`,
        },
      },
    });

  test('a missing or wrong signature is bad_request and moves no money; a body signed with the test-mode secret is processed once', async () => {
    const started = expectOk(await checkout({ token: owner.token }, { topupUsdCents: 600 }));
    const before = await balanceOf(db, owner.workspaceId);
    const body = event(started.id, started.providerTxnId, owner.workspaceId, `evt_direct_${started.id}`);
    const post = (headers: Record<string, string>, raw = body) =>
      call('POST', '/v1/billing/webhook', { rawBody: raw, headers: { 'content-type': 'application/json', ...headers } });

    expectBillingError(await post({}), 400, 'bad_request');
    expectBillingError(await post({ 'stripe-signature': 'garbage' }), 400, 'bad_request');
    expectBillingError(await post({ 'stripe-signature': signatureHeader('whsec_wrong', body) }), 400, 'bad_request');
    // Signed, then altered: the raw bytes are what is verified.
    expectBillingError(
      await post({ 'stripe-signature': signatureHeader(testModeWebhookSecret(), body) }, body.replace('"paid"', '"paid" ')),
      400,
      'bad_request',
    );
    // Signed long ago: outside the tolerance.
    expectBillingError(
      await post({ 'stripe-signature': signatureHeader(testModeWebhookSecret(), body, Math.floor(Date.now() / 1000) - 3_600) }),
      400,
      'bad_request',
    );
    assert.equal(await balanceOf(db, owner.workspaceId), before);

    const first = expectOk(await post({ 'stripe-signature': signatureHeader(testModeWebhookSecret(), body) }));
    assert.deepEqual(first, { received: true, duplicate: false, action: 'credited' });
    const second = expectOk(await post({ 'stripe-signature': signatureHeader(testModeWebhookSecret(), body) }));
    assert.deepEqual(second, { received: true, duplicate: true, action: 'nothing' });
    assert.equal(await balanceOf(db, owner.workspaceId), before + 600_000n);

    const unknown = JSON.stringify({ id: `evt_unknown_${started.id}`, type: 'customer.created', data: { object: { id: 'cus_1' } } });
    assert.deepEqual(expectOk(await post({ 'stripe-signature': signatureHeader(testModeWebhookSecret(), unknown) }, unknown)), {
      received: true,
      duplicate: false,
      action: 'ignored',
    });
  });
});
