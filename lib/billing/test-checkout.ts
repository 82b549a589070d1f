// The test mode's checkout page (docs/billing-payments.md, Test mode): what it shows, and its
// two actions. Only the instance operator confirms a test payment: it credits the wallet without
// money, so letting any workspace owner confirm would let anyone mint credit. Confirming signs a
// Stripe-shaped `checkout.session.completed` with the test-mode secret and runs it through the
// webhook path (lib/billing/webhook.ts), exactly as a Stripe delivery is run.
import { ApiError, forbidden, notFound } from '../api/errors';
import { db } from '../db';
import { isInstanceAdmin } from '../users/instance-admin';
import { paymentProcessor } from './processors';
import { signatureHeader } from './processors/signature';
import { testModeWebhookSecret, testPaymentIntentId } from './processors/test-mode';
import { handleWebhook } from './webhook';

/** A test checkout left this long is expired instead of confirmed, as a Stripe session would be. */
export const TEST_CHECKOUT_LIFETIME_MS = 24 * 3_600_000;

interface Caller {
  id: string;
  email: string;
}

export interface TestCheckoutView {
  id: string;
  providerTxnId: string | null;
  status: string;
  creditCents: number;
  feeCents: number;
  chargeCents: number;
  createdAt: string;
  workspaceName: string;
  /** The caller is the instance operator, who alone may confirm. */
  operator: boolean;
  /** Test mode is this installation's processor now (not Stripe). */
  testMode: boolean;
  canConfirm: boolean;
  canCancel: boolean;
}

/** The test top-up, for the operator or a member of its workspace; anyone else is told it does not exist. */
async function load(caller: Caller, id: string) {
  const row = await db.transaction.findUnique({ where: { id }, include: { workspace: { select: { name: true } } } });
  if (!row || row.kind !== 'topup' || row.provider !== 'test') throw notFound('test checkout');
  const operator = await isInstanceAdmin(caller);
  const member =
    operator ||
    (await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId: row.workspaceId, userId: caller.id } }, select: { id: true } })) !== null;
  if (!member) throw notFound('test checkout');
  return { row, operator };
}

export async function viewTestCheckout(caller: Caller, id: string): Promise<TestCheckoutView> {
  const { row, operator } = await load(caller, id);
  const testMode = paymentProcessor().name === 'test';
  const open = row.status === 'pending' && row.providerTxnId !== null && testMode;
  return {
    id: row.id,
    providerTxnId: row.providerTxnId,
    status: row.status,
    creditCents: row.creditCents,
    feeCents: row.feeCents,
    chargeCents: row.chargeCents,
    createdAt: row.createdAt.toISOString(),
    workspaceName: row.workspace.name,
    operator,
    testMode,
    canConfirm: open && operator,
    canCancel: open,
  };
}

/** A Stripe-shaped checkout-session event for a test top-up, signed with the test-mode secret and run through the webhook path. */
async function deliver(
  row: { id: string; workspaceId: string; providerTxnId: string | null; creditCents: number; chargeCents: number },
  type: 'checkout.session.completed' | 'checkout.session.expired',
) {
  const processor = paymentProcessor();
  const paid = type === 'checkout.session.completed';
  const body = JSON.stringify({
    // One event per transaction and outcome: confirming twice is the same event twice.
    id: `evt_test_${row.id}_${paid ? 'paid' : 'expired'}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: {
      object: {
        id: row.providerTxnId,
        object: 'checkout.session',
        mode: 'payment',
        status: paid ? 'complete' : 'expired',
        payment_status: paid ? 'paid' : 'unpaid',
        amount_total: row.chargeCents,
        currency: 'usd',
        client_reference_id: row.workspaceId,
        metadata: { transactionId: row.id, workspaceId: row.workspaceId, creditCents: String(row.creditCents) },
        payment_intent: paid ? testPaymentIntentId(row.id) : null,
      },
    },
  });
  return handleWebhook(
    processor,
    body,
    new Headers({ 'content-type': 'application/json', 'stripe-signature': signatureHeader(testModeWebhookSecret(), body) }),
  );
}

function assertTestMode() {
  if (paymentProcessor().name !== 'test') throw new ApiError('conflict', 'test mode is off: this installation takes payments through Stripe');
}

export async function confirmTestCheckout(caller: Caller, id: string): Promise<{ status: string; redirectTo: string }> {
  const { row, operator } = await load(caller, id);
  if (!operator) throw forbidden('only the operator of this installation can confirm a test payment');
  assertTestMode();
  if (!row.providerTxnId) throw new ApiError('conflict', 'this checkout was never opened');
  if (row.status === 'pending' && Date.now() - row.createdAt.getTime() > TEST_CHECKOUT_LIFETIME_MS) {
    await deliver(row, 'checkout.session.expired');
    throw new ApiError('conflict', 'this test checkout expired (24 hours); start a new top-up');
  }
  if (row.status !== 'pending' && row.paidAt === null) throw new ApiError('conflict', `this checkout is ${row.status}; start a new top-up`);
  await deliver(row, 'checkout.session.completed');
  const after = await db.transaction.findUniqueOrThrow({ where: { id }, select: { status: true } });
  return { status: after.status, redirectTo: await returnTo(caller, row, `/billing?checkout=${encodeURIComponent(row.providerTxnId)}`) };
}

/**
 * Where the page sends the caller after an action: the Billing page of the checkout's workspace
 * when it is the one they are in, else back to this page, which says whose wallet it was (the
 * operator confirming another workspace's payment would find no such payment on their own Billing).
 */
async function returnTo(caller: Caller, row: { id: string; workspaceId: string }, billing: string): Promise<string> {
  const user = await db.user.findUnique({ where: { id: caller.id }, select: { activeWorkspaceId: true } });
  return user?.activeWorkspaceId === row.workspaceId ? billing : `/billing/test-checkout/${encodeURIComponent(row.id)}`;
}

export async function cancelTestCheckout(caller: Caller, id: string): Promise<{ status: string; redirectTo: string }> {
  const { row } = await load(caller, id);
  assertTestMode();
  if (row.status === 'pending' && row.providerTxnId) await deliver(row, 'checkout.session.expired');
  const after = await db.transaction.findUniqueOrThrow({ where: { id }, select: { status: true } });
  return { status: after.status, redirectTo: await returnTo(caller, row, '/billing?checkout=cancelled') };
}

/** Test top-ups waiting for the operator (pending, opened, under 24 hours old), newest first: the operator's Workspaces page lists them. */
export async function listPendingTestCheckouts() {
  const rows = await db.transaction.findMany({
    where: {
      kind: 'topup',
      provider: 'test',
      status: 'pending',
      providerTxnId: { not: null },
      createdAt: { gt: new Date(Date.now() - TEST_CHECKOUT_LIFETIME_MS) },
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 100,
    include: { workspace: { select: { name: true } } },
  });
  return {
    items: rows.map((r) => ({
      id: r.id,
      workspaceId: r.workspaceId,
      workspaceName: r.workspace.name,
      creditCents: r.creditCents,
      chargeCents: r.chargeCents,
      createdAt: r.createdAt.toISOString(),
      path: `/billing/test-checkout/${r.id}`,
    })),
  };
}
