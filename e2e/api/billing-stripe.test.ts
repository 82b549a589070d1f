// Top-ups through Stripe, against a local stand-in of Stripe's API (e2e/support/vendors/stripe.ts)
// over real sockets. The shared stack runs in test mode, so this file starts a web process of its
// own (the same build and database) with STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and
// STRIPE_API_BASE pointing at the stand-in, and delivers Stripe's signed webhooks to it: once,
// twice, out of order, with bad signatures; completion, delayed payments, expiry, refunds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import Stripe from 'stripe';
import { addMember, call, expectOk, newUser, type Res, type TestUser } from '../support/api';
import { startStripeStandIn, type StripeEvent, type StripeStandIn } from '../support/vendors/stripe';
import { freePort, waitForListening } from '../../scripts/lib/ports';
import { programRunner, startChild, stopChild } from '../../scripts/lib/processes';
import { db } from '../../lib/db';
import { balanceOf } from '../../lib/billing/ledger';
import { feeTable, quoteTopup } from '../../lib/billing/fees';

const API_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(18).toString('base64url')}`;

let stripe: StripeStandIn;
let web: string;
let hook: string;
const children: ChildProcess[] = [];
let owner: TestUser;

before(async () => {
  stripe = await startStripeStandIn({ apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET });
  const port = await freePort();
  web = `http://127.0.0.1:${port}`;
  hook = `${web}/v1/billing/webhook`;
  const env = {
    ...process.env,
    WEB_PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SERVICE_NAME: 'web',
    PUBLIC_WEB_URL: web,
    NEXTAUTH_URL: web,
    STRIPE_SECRET_KEY: API_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  };
  const webStripe = startChild('web-stripe', [programRunner, 'scripts/web-server.ts'], env, !process.env.TEST_VERBOSE);
  children.push(webStripe);
  await waitForListening(webStripe, port, { name: 'web-stripe' });
  owner = await newUser('stripe-owner');
});

after(async () => {
  await Promise.all(children.map((c) => stopChild(c, 5_000)));
  await stripe?.stop();
});

function expectBillingError(res: Res, status: number, code: string) {
  assert.equal(res.status, status, `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.ok, false);
  assert.equal(res.body?.error, code);
}

interface Started {
  id: string;
  providerTxnId: string;
  checkoutUrl: string;
  creditCents: number;
  feeCents: number;
  chargeCents: number;
}

async function checkout(user: TestUser, topupUsdCents: number): Promise<Started> {
  return expectOk(await call('POST', '/v1/billing/checkout', { base: web, auth: { token: user.token }, body: { topupUsdCents } }));
}

const topupRow = (id: string) => db.transaction.findUniqueOrThrow({ where: { id } });
const balance = (user: TestUser) => balanceOf(db, user.workspaceId);

async function deliver(event: StripeEvent, options?: { badSignature?: boolean; noSignature?: boolean }) {
  return stripe.deliver(hook, event, options);
}
async function delivered(event: StripeEvent) {
  const res = await deliver(event);
  assert.equal(res.status, 200, `delivery of ${event.type}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as { received: true; duplicate: boolean; action: string };
}

describe('checkout', () => {
  test('creates a Checkout Session with the quote, the workspace and the transaction id as idempotency key', async () => {
    const started = await checkout(owner, 2_000);
    const quote = quoteTopup(2_000, feeTable().card);
    assert.deepEqual({ creditCents: started.creditCents, feeCents: started.feeCents, chargeCents: started.chargeCents }, quote);
    const session = stripe.sessions.get(started.providerTxnId);
    assert.ok(session, 'the session exists at the stand-in');
    assert.equal(started.checkoutUrl, session.url);

    const create = stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/checkout/sessions').at(-1)!;
    assert.equal(create.idempotencyKey, started.id);
    assert.equal(create.status, 200);
    const p = create.params as any;
    assert.equal(p.mode, 'payment');
    assert.equal(p.line_items.length, 1);
    assert.equal(p.line_items[0].quantity, '1');
    assert.equal(p.line_items[0].price_data.currency, 'usd');
    assert.equal(p.line_items[0].price_data.unit_amount, String(quote.chargeCents));
    assert.equal(typeof p.line_items[0].price_data.product_data.name, 'string');
    assert.equal(p.client_reference_id, owner.workspaceId);
    assert.deepEqual(p.metadata, { transactionId: started.id, workspaceId: owner.workspaceId, creditCents: '2000' });
    assert.equal(p.success_url, `${web}/billing?checkout={CHECKOUT_SESSION_ID}`);
    assert.equal(p.cancel_url, `${web}/billing?checkout=cancelled`);

    const row = await topupRow(started.id);
    assert.deepEqual(
      [row.provider, row.status, row.providerTxnId, row.checkoutUrl, row.chargeCents],
      ['stripe', 'pending', started.providerTxnId, session.url, quote.chargeCents],
    );
  });

  test("the stand-in keeps Stripe's idempotency rules for the stripe package: same key → same session, other parameters → idempotency_error", async () => {
    const url = new URL(stripe.url);
    const client = new Stripe(API_KEY, { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
    const params = {
      mode: 'payment' as const,
      success_url: 'https://example.test/ok',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 546, product_data: { name: 'x' } } }],
    };
    const key = `idem-${randomBytes(6).toString('hex')}`;
    const first = await client.checkout.sessions.create(params, { idempotencyKey: key });
    const again = await client.checkout.sessions.create(params, { idempotencyKey: key });
    assert.equal(again.id, first.id);
    assert.equal(stripe.calls.at(-1)!.replayed, true);
    await assert.rejects(
      client.checkout.sessions.create(
        { ...params, line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 999, product_data: { name: 'x' } } }] },
        { idempotencyKey: key },
      ),
      (error: { type?: string }) => error.type === 'StripeIdempotencyError',
    );
  });

  test('a processor that cannot be reached is 502 payment_processor_unavailable and the transaction is failed, nothing else written', async () => {
    const before = await db.transaction.count({ where: { workspaceId: owner.workspaceId } });
    stripe.down = true;
    let res: Res;
    try {
      res = await call('POST', '/v1/billing/checkout', { base: web, auth: { token: owner.token }, body: { topupUsdCents: 500 } });
    } finally {
      stripe.down = false;
    }
    expectBillingError(res, 502, 'payment_processor_unavailable');
    const rows = await db.transaction.findMany({ where: { workspaceId: owner.workspaceId }, orderBy: { createdAt: 'desc' } });
    assert.equal(rows.length, before + 1);
    assert.deepEqual([rows[0]!.status, rows[0]!.providerTxnId, rows[0]!.checkoutUrl], ['failed', null, null]);
    const listed = expectOk(await call('GET', '/v1/billing/transactions', { base: web, auth: { token: owner.token } }));
    assert.equal(listed.items[0].status, 'failed');
    assert.equal((await checkout(owner, 500)).creditCents, 500, 'back up: checkout works again');
  });
});

describe('webhooks', () => {
  test('a paid completion credits the wallet once; the same event again changes nothing', async () => {
    const user = await newUser('stripe-paid');
    const started = await checkout(user, 1_000);
    const { completed, charge } = stripe.pay(started.providerTxnId);
    assert.deepEqual(await delivered(completed), { received: true, duplicate: false, action: 'credited' });
    assert.deepEqual(await delivered(completed), { received: true, duplicate: true, action: 'nothing' });
    assert.equal(await balance(user), 1_000_000n);
    const row = await topupRow(started.id);
    assert.deepEqual([row.status, row.paymentIntentId, row.receiptUrl], ['paid', charge.payment_intent, charge.receipt_url]);
    assert.ok(row.paidAt);
    // The receipt came from the payment intent's latest charge, through the API.
    assert.ok(stripe.calls.some((c) => c.path === `/v1/payment_intents/${charge.payment_intent}`));
    assert.ok(stripe.calls.some((c) => c.path === `/v1/charges/${charge.id}`));
    const entries = await db.walletEntry.findMany({ where: { workspaceId: user.workspaceId } });
    assert.deepEqual(
      entries.map((e) => [e.kind, e.amountMillicents, e.cause]),
      [['topup', 1_000_000n, `topup:${started.id}`]],
    );
    const txn = expectOk(await call('GET', `/v1/billing/transactions/${started.providerTxnId}`, { base: web, auth: { token: user.token } }));
    assert.deepEqual([txn.provider, txn.status, txn.kind, txn.amountUsdCents, txn.receiptUrl], ['stripe', 'paid', 'topup', 1_000, charge.receipt_url]);
  });

  test('a bad or missing signature is 400 bad_request and moves no money; the genuine delivery still works afterwards', async () => {
    const user = await newUser('stripe-badsig');
    const started = await checkout(user, 500);
    const { completed } = stripe.pay(started.providerTxnId);
    for (const options of [{ badSignature: true }, { noSignature: true }]) {
      const res = await deliver(completed, options);
      assert.equal(res.status, 400);
      assert.deepEqual([res.body.ok, res.body.error], [false, 'bad_request']);
    }
    assert.equal(await balance(user), 0n);
    assert.equal((await topupRow(started.id)).status, 'pending');
    assert.equal((await delivered(completed)).action, 'credited');
    assert.equal(await balance(user), 500_000n);
  });

  test('a delayed payment: completed (unpaid) does nothing, async_payment_succeeded credits once', async () => {
    const user = await newUser('stripe-async');
    const started = await checkout(user, 1_500);
    const { completed } = stripe.pay(started.providerTxnId, { async: true });
    assert.equal((await delivered(completed)).action, 'nothing');
    assert.equal((await topupRow(started.id)).status, 'pending');
    assert.equal(await balance(user), 0n);
    const succeeded = stripe.settle(started.providerTxnId);
    assert.equal((await delivered(succeeded)).action, 'credited');
    assert.equal((await delivered(succeeded)).duplicate, true);
    assert.equal((await topupRow(started.id)).status, 'paid');
    assert.equal(await balance(user), 1_500_000n);
  });

  test('out of order: async_payment_succeeded before completed credits once', async () => {
    const user = await newUser('stripe-order');
    const started = await checkout(user, 900);
    const { completed } = stripe.pay(started.providerTxnId, { async: true });
    const succeeded = stripe.settle(started.providerTxnId);
    assert.equal((await delivered(succeeded)).action, 'credited');
    assert.equal((await delivered(completed)).action, 'nothing');
    assert.equal(await balance(user), 900_000n);
    assert.equal(await db.walletEntry.count({ where: { workspaceId: user.workspaceId } }), 1);
  });

  test('a failed delayed payment marks the top-up failed; an expired session marks it expired; no money either way', async () => {
    const user = await newUser('stripe-fail');
    const failing = await checkout(user, 500);
    stripe.pay(failing.providerTxnId, { async: true });
    assert.equal((await delivered(stripe.settle(failing.providerTxnId, false))).action, 'failed');
    assert.equal((await topupRow(failing.id)).status, 'failed');
    const expiring = await checkout(user, 500);
    const expired = stripe.expire(expiring.providerTxnId);
    assert.equal((await delivered(expired)).action, 'expired');
    assert.equal((await topupRow(expiring.id)).status, 'expired');
    assert.equal(await balance(user), 0n);
  });

  test('partial then full refund: refund rows and ledger entries take the credit back in proportion; events again or out of order change nothing', async () => {
    const user = await newUser('stripe-refund');
    const started = await checkout(user, 500); // charge 546
    const { completed, charge } = stripe.pay(started.providerTxnId);
    await delivered(completed);
    const partial = stripe.refund(charge.id, 100);
    assert.equal((await delivered(partial.event)).action, 'refunded');
    let row = await topupRow(started.id);
    assert.deepEqual([row.status, row.refundedCents], ['partially_refunded', 100]);
    assert.ok(row.refundedAt);
    const firstBack = Math.floor((100 * 500) / started.chargeCents); // 91
    assert.equal(await balance(user), BigInt(500 - firstBack) * 1_000n);

    const full = stripe.refund(charge.id, undefined, { withRefunds: true });
    assert.equal((await delivered(full.event)).action, 'refunded');
    assert.equal((await delivered(partial.event)).duplicate, true);
    row = await topupRow(started.id);
    assert.deepEqual([row.status, row.refundedCents], ['refunded', started.chargeCents]);
    assert.equal(await balance(user), 0n, 'a full refund takes back exactly the credit');

    const refunds = await db.transaction.findMany({ where: { topupId: started.id }, orderBy: { createdAt: 'asc' } });
    assert.deepEqual(
      refunds.map((r) => [r.kind, r.status, r.providerTxnId, r.amountUsdCents, r.chargeCents]),
      [
        ['refund', 'refunded', `${charge.id}:100`, firstBack, 100],
        ['refund', 'refunded', full.refundId, 500 - firstBack, started.chargeCents - 100],
      ],
    );
    const entries = await db.walletEntry.findMany({ where: { workspaceId: user.workspaceId, kind: 'refund' }, orderBy: { id: 'asc' } });
    assert.deepEqual(
      entries.map((e) => [e.amountMillicents, e.cause]),
      [
        [-BigInt(firstBack) * 1_000n, `refund:${charge.id}:100`],
        [-BigInt(500 - firstBack) * 1_000n, `refund:${full.refundId}`],
      ],
    );
    const ledger = await db.ledgerEntry.findMany({ where: { workspaceId: user.workspaceId, kind: 'refund' } });
    assert.equal(
      ledger.reduce((s, l) => s + l.totalMillicents, 0n),
      -500_000n,
    );
    assert.equal(
      ledger.reduce((s, l) => s + l.count, 0),
      2,
    );

    const listed = expectOk(await call('GET', '/v1/billing/transactions', { base: web, auth: { token: user.token } }));
    assert.deepEqual(
      listed.items.map((t: { kind: string; status: string }) => [t.kind, t.status]),
      [
        ['refund', 'refunded'],
        ['refund', 'refunded'],
        ['topup', 'refunded'],
      ],
    );
    assert.equal(
      expectOk(await call('GET', `/v1/billing/transactions/${full.refundId}`, { base: web, auth: { token: user.token } })).amountUsdCents,
      500 - firstBack,
    );
  });

  test('refunds out of order: the full refund first, then the partial one, takes the credit back once', async () => {
    const user = await newUser('stripe-refund-order');
    const started = await checkout(user, 2_000);
    const { completed, charge } = stripe.pay(started.providerTxnId);
    await delivered(completed);
    const partial = stripe.refund(charge.id, 300);
    const full = stripe.refund(charge.id);
    assert.equal((await delivered(full.event)).action, 'refunded');
    assert.equal((await delivered(partial.event)).action, 'nothing');
    assert.equal(await balance(user), 0n);
    assert.equal(await db.transaction.count({ where: { topupId: started.id } }), 1);
  });

  test('a refund before the completion: Stripe is asked for the session, the top-up is credited first, then the refund taken back; the late completion changes nothing', async () => {
    const user = await newUser('stripe-early-refund');
    const started = await checkout(user, 1_000);
    const { completed, charge } = stripe.pay(started.providerTxnId);
    const partial = stripe.refund(charge.id, 500);
    assert.equal((await delivered(partial.event)).action, 'refunded');
    assert.ok(stripe.calls.some((c) => c.method === 'GET' && c.path === '/v1/checkout/sessions' && c.query.payment_intent === charge.payment_intent));
    const back = Math.floor((500 * 1_000) / started.chargeCents);
    assert.equal(await balance(user), BigInt(1_000 - back) * 1_000n);
    let row = await topupRow(started.id);
    assert.deepEqual([row.status, row.paymentIntentId, row.receiptUrl], ['partially_refunded', charge.payment_intent, charge.receipt_url]);
    assert.equal((await delivered(completed)).action, 'nothing');
    assert.equal(await balance(user), BigInt(1_000 - back) * 1_000n);
    row = await topupRow(started.id);
    assert.equal(row.status, 'partially_refunded');
    const kinds = (await db.walletEntry.findMany({ where: { workspaceId: user.workspaceId }, orderBy: { id: 'asc' } })).map((e) => e.kind);
    assert.deepEqual(kinds, ['topup', 'refund']);
  });

  test('a refund of a payment that is not ours, unknown event types and a deleted workspace are acknowledged and ignored', async () => {
    const foreign = stripe.pay(
      (
        await new Stripe(API_KEY, { host: '127.0.0.1', port: new URL(stripe.url).port, protocol: 'http' }).checkout.sessions.create({
          mode: 'payment',
          success_url: 'https://example.test/ok',
          line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 700, product_data: { name: 'not ours' } } }],
        })
      ).id,
    );
    assert.equal((await delivered(stripe.refund(foreign.charge.id).event)).action, 'ignored');
    assert.equal((await delivered(foreign.completed)).action, 'ignored');
    assert.equal((await delivered({ ...foreign.completed, id: `evt_${randomBytes(6).toString('hex')}`, type: 'invoice.paid' })).action, 'ignored');

    const user = await newUser('stripe-gone');
    const started = await checkout(user, 500);
    const { completed } = stripe.pay(started.providerTxnId);
    await db.workspace.delete({ where: { id: user.workspaceId } });
    assert.equal((await delivered(completed)).action, 'ignored');
    assert.equal(await db.walletEntry.count({ where: { workspaceId: user.workspaceId } }), 0);
  });

  test("transactions are the workspace's own: another workspace's top-up is not_found; members read, members cannot check out", async () => {
    const other = await newUser('stripe-other');
    const mine = await checkout(owner, 500);
    expectBillingError(await call('GET', `/v1/billing/transactions/${mine.providerTxnId}`, { base: web, auth: { token: other.token } }), 404, 'not_found');
    await addMember(owner.workspaceId, other.userId, 'member');
    const asMember = { base: web, auth: { token: other.token }, headers: { 'x-workspace-id': owner.workspaceId } };
    assert.equal(expectOk(await call('GET', `/v1/billing/transactions/${mine.providerTxnId}`, asMember)).id, mine.id);
    expectBillingError(await call('POST', '/v1/billing/checkout', { ...asMember, body: { topupUsdCents: 500 } }), 403, 'forbidden');
  });
});
