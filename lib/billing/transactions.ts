// Top-ups and refunds as the API shows them (docs/api.md, Transaction), and the two reads of
// GET /v1/billing/transactions[/:providerTxnId]. Every query is scoped by workspace.
import { db } from '../db';
import type { Transaction } from '../db/generated/client';
import { notFound } from '../api/errors';

/** The newest this many top-ups and refunds are listed. */
export const TRANSACTIONS_LISTED = 100;

export interface TransactionView {
  id: string;
  provider: string;
  providerTxnId: string | null;
  /** Top-up: the credit added to the wallet. Refund: the credit taken back out of it. */
  amountUsdCents: number;
  status: string;
  kind: string;
  receiptUrl: string | null;
  createdAt: string;
  paidAt: string | null;
  refundedAt: string | null;
  // Beyond the contract's fields: the quote of a top-up (for a refund: the credit taken back, the
  // part of the processor fee returned with it, and the money refunded), and a refund's top-up.
  creditCents: number;
  feeCents: number;
  chargeCents: number;
  topupId: string | null;
}

type Row = Pick<
  Transaction,
  | 'id'
  | 'provider'
  | 'providerTxnId'
  | 'amountUsdCents'
  | 'status'
  | 'kind'
  | 'receiptUrl'
  | 'createdAt'
  | 'paidAt'
  | 'refundedAt'
  | 'creditCents'
  | 'feeCents'
  | 'chargeCents'
  | 'topupId'
>;

const select = {
  id: true,
  provider: true,
  providerTxnId: true,
  amountUsdCents: true,
  status: true,
  kind: true,
  receiptUrl: true,
  createdAt: true,
  paidAt: true,
  refundedAt: true,
  creditCents: true,
  feeCents: true,
  chargeCents: true,
  topupId: true,
} as const;

export function serializeTransaction(row: Row): TransactionView {
  return {
    id: row.id,
    provider: row.provider,
    providerTxnId: row.providerTxnId,
    amountUsdCents: row.amountUsdCents,
    status: row.status,
    kind: row.kind,
    receiptUrl: row.receiptUrl,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
    creditCents: row.creditCents,
    feeCents: row.feeCents,
    chargeCents: row.chargeCents,
    topupId: row.topupId,
  };
}

/** The newest TRANSACTIONS_LISTED; `total` counts them all. */
export async function listTransactions(workspaceId: string): Promise<{ items: TransactionView[]; total: number }> {
  const [rows, total] = await Promise.all([
    db.transaction.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: TRANSACTIONS_LISTED, select }),
    db.transaction.count({ where: { workspaceId } }),
  ]);
  return { items: rows.map(serializeTransaction), total };
}

/** One transaction by the processor's id; another workspace's is not found. */
export async function getTransaction(workspaceId: string, providerTxnId: string): Promise<TransactionView> {
  const row = await db.transaction.findFirst({ where: { workspaceId, providerTxnId }, select });
  if (!row) throw notFound('transaction');
  return serializeTransaction(row);
}
