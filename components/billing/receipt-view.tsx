'use client';
// The receipt of a paid top-up or a refund, printable. Read through the API like the Billing
// page (GET /v1/billing/transactions), in the active workspace first and then in the caller's
// other workspaces, so a receipt of any workspace the user belongs to opens; anything else, and
// any payment that is not settled, is "not found".
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { apiFetch } from '@/lib/client/api-fetch';
import type { BillingTransaction } from '@/lib/client/billing';
import { useMe } from '@/lib/client/me';
import { formatCents } from '@/lib/client/money';
import { Badge } from '../ui/badge';
import { Button, ButtonLink } from '../ui/button';
import { ErrorState, EmptyState } from '../ui/empty-state';
import { ChevronLeftIcon, LogoMark, XCircleIcon } from '../ui/icons';
import { Skeleton } from '../ui/skeleton';
import { formatDateTime } from '../ui/time';
import { kindLabel, statusOf } from './labels';

const receiptStatuses = new Set(['paid', 'refunded', 'partially_refunded']);

function useReceipt(id: string) {
  const me = useMe();
  const workspaces = me.data?.workspaces ?? [];
  const order = [...workspaces].sort((a, b) => Number(b.id === me.data?.activeWorkspaceId) - Number(a.id === me.data?.activeWorkspaceId));
  return useQuery({
    queryKey: ['receipt', id, order.map((w) => w.id)],
    enabled: Boolean(me.data),
    queryFn: async () => {
      for (const workspace of order) {
        const { items } = await apiFetch<{ items: BillingTransaction[] }>('/v1/billing/transactions', { workspaceId: workspace.id });
        const txn = items.find((t) => t.id === id);
        if (txn) return receiptStatuses.has(txn.status) ? { txn, workspace } : null;
      }
      return null;
    },
  });
}

export function ReceiptView({ id }: { id: string }) {
  const me = useMe();
  const receipt = useReceipt(id);
  return (
    <div className="mx-auto max-w-2xl px-6 py-10 print:max-w-none print:p-0">
      <div className="mb-6 flex items-center justify-between gap-4 print:hidden">
        <Link href="/billing" className="flex items-center gap-1 text-[13px] font-medium text-zinc-600 hover:text-zinc-900">
          <ChevronLeftIcon className="size-4" />
          Billing
        </Link>
        {receipt.data && (
          <Button variant="secondary" onClick={() => window.print()}>
            Print
          </Button>
        )}
      </div>
      <article aria-label="Receipt" className="rounded-xl border border-zinc-200 bg-white shadow-xs print:border-0 print:shadow-none">
        {receipt.error || me.error ? (
          <ErrorState error={receipt.error ?? me.error} onRetry={() => void receipt.refetch()} />
        ) : receipt.isPending ? (
          <div className="space-y-4 p-8" aria-busy="true">
            <Skeleton className="h-6 w-40" />
            <Skeleton className="h-4 w-64" />
            <Skeleton className="h-32 w-full" />
          </div>
        ) : !receipt.data ? (
          <EmptyState
            icon={<XCircleIcon />}
            title="Receipt not found"
            description="There is no paid top-up or refund with this reference in your workspaces."
            action={<ButtonLink href="/billing">Back to billing</ButtonLink>}
          />
        ) : (
          <Receipt txn={receipt.data.txn} workspace={receipt.data.workspace} email={me.data?.user.email ?? ''} />
        )}
      </article>
    </div>
  );
}

function Receipt({ txn, workspace, email }: { txn: BillingTransaction; workspace: { id: string; name: string; slug: string }; email: string }) {
  const refund = txn.kind === 'refund';
  const credit = txn.creditCents || txn.amountUsdCents;
  const charge = txn.chargeCents || credit;
  const fee = txn.feeCents ?? Math.max(0, charge - credit);
  const date = refund ? (txn.refundedAt ?? txn.createdAt) : (txn.paidAt ?? txn.createdAt);
  const status = statusOf(txn.status);
  return (
    <div className="p-8">
      <header className="flex items-start justify-between gap-6">
        <div>
          <div className="flex items-center gap-2 text-[15px] font-semibold text-zinc-900">
            <LogoMark className="size-6" />
            Browser Router
          </div>
          <h1 className="mt-4 text-2xl font-semibold tracking-tight text-zinc-900">{refund ? 'Refund receipt' : 'Receipt'}</h1>
          <p className="mt-1 text-sm text-zinc-500">
            {refund ? 'Money returned and taken back out of the prepaid wallet.' : 'Money added to the prepaid wallet.'}
          </p>
        </div>
        <Badge tone={status.tone}>{status.label}</Badge>
      </header>

      <dl className="mt-8 grid grid-cols-2 gap-x-8 gap-y-4 text-sm">
        <Fact label="Receipt number" value={<code className="font-mono text-[13px] break-all">{txn.id}</code>} />
        <Fact label={refund ? 'Refunded' : 'Paid'} value={formatDateTime(date)} />
        <Fact label="Workspace" value={`${workspace.name} (${workspace.slug})`} />
        <Fact label="Account" value={email} />
        <Fact
          label="Payment"
          value={txn.provider === 'test' ? 'Test mode: no real money moved' : `Card, through ${txn.provider.charAt(0).toUpperCase()}${txn.provider.slice(1)}`}
        />
        {txn.providerTxnId && <Fact label="Processor reference" value={<code className="font-mono text-[13px] break-all">{txn.providerTxnId}</code>} />}
      </dl>

      <Amounts refund={refund} kind={txn.kind} credit={credit} fee={fee} charge={charge} />
      <p className="mt-8 text-[12px] text-zinc-400">Amounts in US dollars.</p>
    </div>
  );
}

/** The credit, the card fee and the total, signed for a refund. */
function Amounts({ refund, kind, credit, fee, charge }: { refund: boolean; kind: BillingTransaction['kind']; credit: number; fee: number; charge: number }) {
  return (
    <table className="mt-8 w-full text-sm" aria-label="Amounts">
      <thead>
        <tr className="border-b border-zinc-200 text-left text-xs text-zinc-500">
          <th scope="col" className="py-2 font-medium">
            Description
          </th>
          <th scope="col" className="py-2 text-right font-medium">
            Amount
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-zinc-100">
        <tr>
          <td className="py-2.5 text-zinc-700">{refund ? 'Wallet credit taken back' : `${kindLabel(kind)}: wallet credit`}</td>
          <td className="py-2.5 text-right text-zinc-900 tabular-nums">{formatCents(refund ? -credit : credit)}</td>
        </tr>
        {fee > 0 && (
          <tr>
            <td className="py-2.5 text-zinc-700">{refund ? 'Card fee returned' : 'Card processing fee'}</td>
            <td className="py-2.5 text-right text-zinc-900 tabular-nums">{formatCents(refund ? -fee : fee)}</td>
          </tr>
        )}
      </tbody>
      <tfoot>
        <tr className="border-t border-zinc-300">
          <th scope="row" className="py-3 text-left font-semibold text-zinc-900">
            {refund ? 'Total refunded' : 'Total paid'}
          </th>
          <td className="py-3 text-right text-base font-semibold text-zinc-900 tabular-nums">{formatCents(charge)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <dt className="text-[12px] font-medium tracking-wide text-zinc-400 uppercase">{label}</dt>
      <dd className="mt-0.5 text-zinc-900">{value}</dd>
    </div>
  );
}
