'use client';
// Billing: the workspace's prepaid wallet. Balance and account state with the top-up, the month's
// sessions against the free count, prices, usage by day, the ledger and the payments.
import { useSearchParams } from 'next/navigation';
import { useBillingSummary } from '@/lib/client/billing';
import { useActiveWorkspace } from '@/lib/client/me';
import { Alert } from '../ui/alert';
import { ErrorState } from '../ui/empty-state';
import { PageHeader } from '../ui/page-header';
import { Skeleton } from '../ui/skeleton';
import { CheckoutStatus } from './checkout-status';
import { LedgerCard } from './ledger-card';
import { TransactionsCard } from './transactions-card';
import { UsageCard } from './usage-card';
import { RatesPanel, SessionsPanel, WalletPanel } from './wallet-cards';

export function BillingPage() {
  const checkout = useSearchParams().get('checkout');
  const summary = useBillingSummary();
  const { canManage, workspace } = useActiveWorkspace();
  const data = summary.data;
  return (
    <>
      <PageHeader
        eyebrow={workspace?.name}
        title="Billing"
        description="A prepaid wallet: top up by card, and sessions above the free monthly count, recording and traces are drawn from it. The first 10,000 sessions each month are free."
      />
      {checkout && <CheckoutStatus checkout={checkout} />}
      {data?.suspended && (
        <Alert tone="danger" title="This workspace is suspended" className="mb-6">
          The operator of this installation has suspended it: its routers refuse new sessions and data-API calls. Contact them to restore it; the wallet keeps
          its balance.
        </Alert>
      )}
      {summary.error && !data ? (
        <div className="rounded-xl border border-zinc-200 bg-white shadow-xs">
          <ErrorState error={summary.error} onRetry={() => void summary.refetch()} />
        </div>
      ) : !data ? (
        <div className="grid gap-4 lg:grid-cols-3" aria-busy="true" aria-label="Loading the wallet">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-44 rounded-xl" />
          ))}
        </div>
      ) : (
        <div className="grid gap-4 lg:grid-cols-3">
          <WalletPanel summary={data} canManage={canManage} />
          <SessionsPanel summary={data} />
          <RatesPanel summary={data} />
        </div>
      )}
      <UsageCard />
      <LedgerCard />
      <TransactionsCard />
    </>
  );
}
