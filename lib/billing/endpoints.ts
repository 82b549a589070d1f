// Billing: the wallet, usage, the ledger, top-ups (docs/api.md, Billing; docs/billing-payments.md).
// Their errors are `{ ok: false, error: "<code>", message }`, invalid input `bad_request`.
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { byId, operation } from '../openapi/operation';
import { billingSummary, billingUsage, checkout, creditBalance, ledger, transaction, webhookOutcome } from '../openapi/resources/billing';
import { list } from '../openapi/resources/common';
import { checkoutBody } from './checkout-body';
import { ledgerQuery, usageQuery } from './read-schemas';

const TAG = 'Billing';
const common = { tag: TAG, auth: 'account', errorStyle: 'billing' } as const;

export const billingEndpoints = byId([
  operation({
    ...common,
    method: 'get',
    path: '/v1/billing/summary',
    operationId: 'getBillingSummary',
    summary: "Account state, this month's sessions, the wallet, fees and rates",
    responses: { 200: { description: 'The summary', schema: billingSummary } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/credits/balance',
    operationId: 'getCreditBalance',
    summary: "The wallet's balance",
    description: '`updatedAt` is when the balance last moved.',
    responses: { 200: { description: 'The balance', schema: creditBalance } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/billing/usage',
    operationId: 'getBillingUsage',
    summary: 'Usage per UTC day',
    description: 'One row per day of the window (oldest first, days without activity included), totals, and the ledger summed per kind.',
    query: usageQuery,
    responses: { 200: { description: 'The usage', schema: billingUsage } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/billing/ledger',
    operationId: 'getBillingLedger',
    summary: 'The daily ledger',
    description: 'One row per day and kind that had entries, newest day first.',
    query: ledgerQuery,
    responses: { 200: { description: 'The ledger rows', schema: ledger } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/billing/transactions',
    operationId: 'listTransactions',
    summary: 'The last 100 top-ups and refunds',
    description: 'Newest first; `total` counts every one.',
    responses: { 200: { description: 'The transactions', schema: list(transaction) } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/billing/transactions/{providerTxnId}',
    operationId: 'getTransaction',
    params: { providerTxnId: "the processor's id: the checkout session of a top-up, the refund of a refund" },
    summary: 'One transaction',
    responses: { 200: { description: 'The transaction', schema: transaction } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/billing/checkout',
    operationId: 'startCheckout',
    role: 'admin',
    summary: 'Start a top-up',
    description: "Open `checkoutUrl` in a browser to pay; the wallet is credited only by the processor's webhook. The card fee is added on top.",
    body: checkoutBody,
    bodyExample: { topupUsdCents: 2500 },
    errors: ['payment_processor_unavailable'],
    responses: { 200: { description: 'The checkout', schema: checkout } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/billing/webhook',
    operationId: 'billingWebhook',
    auth: 'none',
    scope: 'none',
    summary: "The payment processor's events",
    description:
      "Stripe's signed events: the signature of the raw body (`Stripe-Signature`) is the authentication; each event id is processed once. A bad signature is 400 `bad_request`.",
    errors: ['validation_error'],
    responses: { 200: { description: 'Received', schema: webhookOutcome } },
  }),
]);

const DASHBOARD = 'Dashboard';
const testCheckout = { tag: DASHBOARD, auth: 'account', scope: 'none', errorStyle: 'billing' } as const;

/** The dashboard's own endpoints under /api: served like the API's, outside its document (lib/openapi/operations.ts). */
export const billingDashboardEndpoints = byId([
  operation({
    ...testCheckout,
    method: 'get',
    path: '/api/billing/test-checkout/{id}',
    operationId: 'viewTestCheckout',
    summary: "The test mode's checkout page (the operator, or a member of the top-up's workspace)",
    responses: { 200: { description: 'The checkout' } },
  }),
  operation({
    ...testCheckout,
    method: 'post',
    path: '/api/billing/test-checkout/{id}/cancel',
    operationId: 'cancelTestCheckout',
    summary: 'Abandon a test checkout (it expires)',
    responses: { 200: { description: 'Expired' } },
  }),
  operation({
    ...testCheckout,
    method: 'post',
    path: '/api/billing/test-checkout/{id}/confirm',
    operationId: 'confirmTestCheckout',
    summary: 'The operator confirms a test payment (no money moves)',
    responses: { 200: { description: 'Confirmed' } },
  }),
]);
