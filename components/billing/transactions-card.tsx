'use client';
// Top-ups and refunds of the workspace (the last 100), with their receipts.
import { useBillingTransactions, type BillingTransaction } from '@/lib/client/billing';
import { formatCents } from '@/lib/client/money';
import { Badge } from '../ui/badge';
import { Card, CardHeader } from '../ui/card';
import { DataTable } from '../ui/data-table';
import { EmptyState } from '../ui/empty-state';
import { CreditCardIcon } from '../ui/icons';
import { Time } from '../ui/time';
import { kindLabel, statusOf } from './labels';

/** Our own receipt pages open in place; a processor's receipt opens in a new tab. */
function ReceiptLink({ txn }: { txn: BillingTransaction }) {
  if (!txn.receiptUrl) return <span className="text-zinc-400">—</span>;
  let internal = txn.receiptUrl.startsWith('/');
  try {
    internal ||= new URL(txn.receiptUrl).origin === window.location.origin;
  } catch {
    // Not a URL: shown as it is, as a new-tab link.
  }
  const label = `Receipt for the ${kindLabel(txn.kind).toLowerCase()} of ${formatCents(txn.amountUsdCents)}`;
  return (
    <a
      href={txn.receiptUrl}
      aria-label={label}
      {...(internal ? {} : { target: '_blank', rel: 'noopener noreferrer' })}
      className="text-[13px] font-medium text-accent-600 hover:text-accent-700"
    >
      Receipt
    </a>
  );
}

export function TransactionsCard() {
  const transactions = useBillingTransactions();
  return (
    <Card aria-label="Payments" className="mt-6">
      <CardHeader title="Payments" description="Top-ups and refunds, newest first, with their receipts." />
      <DataTable<BillingTransaction>
        label="Payments"
        query={transactions}
        rows={transactions.data}
        rowKey={(t) => t.id}
        empty={<EmptyState icon={<CreditCardIcon />} title="No payments yet" description="Top-ups you make and refunds appear here with a receipt for each." />}
        columns={[
          { key: 'date', header: 'Date', cell: (t) => <Time value={t.paidAt ?? t.refundedAt ?? t.createdAt} /> },
          { key: 'kind', header: 'Kind', cell: (t) => <span className="text-zinc-900">{kindLabel(t.kind)}</span> },
          {
            key: 'amount',
            header: 'Credit',
            className: 'text-right',
            cell: (t) => (
              <span className="font-medium text-zinc-900 tabular-nums">
                {formatCents(t.kind === 'refund' ? -t.amountUsdCents : t.amountUsdCents, { plus: t.kind !== 'refund' })}
              </span>
            ),
          },
          {
            key: 'charge',
            header: 'Charged',
            className: 'hidden text-right md:table-cell',
            cell: (t) => <span className="text-zinc-500 tabular-nums">{t.chargeCents ? formatCents(t.chargeCents) : '—'}</span>,
          },
          { key: 'status', header: 'Status', cell: (t) => <Badge tone={statusOf(t.status).tone}>{statusOf(t.status).label}</Badge> },
          {
            key: 'provider',
            header: 'Processor',
            className: 'hidden lg:table-cell',
            cell: (t) => <span className="text-zinc-500">{t.provider === 'test' ? 'Test mode' : t.provider}</span>,
          },
          { key: 'receipt', header: <span className="sr-only">Receipt</span>, className: 'text-right', cell: (t) => <ReceiptLink txn={t} /> },
        ]}
      />
    </Card>
  );
}
