'use client';
// The active workspace's prepaid wallet (docs/api.md, Billing): summary, daily usage, the ledger,
// top-ups and refunds, and the checkout that starts a top-up. Billing errors carry `error` as a
// plain string; apiFetch turns both forms into the same ApiClientError.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { startCheckout } from '@/lib/billing/checkout';
import type { billingSummary } from '@/lib/billing/summary';
import type { TransactionView } from '@/lib/billing/transactions';
import type { billingUsage, ledgerRows } from '@/lib/billing/usage';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type AccountState = 'free' | 'paid' | 'enterprise';

// The answers' shapes are the server functions' own (as lib/client/sessions.ts does).
export type BillingSummary = Awaited<ReturnType<typeof billingSummary>>;
export type BillingUsage = Awaited<ReturnType<typeof billingUsage>>;
export type UsageDay = BillingUsage['series'][number];

export const ledgerKinds = ['session', 'recording', 'observability', 'byok_overage', 'reseller', 'topup', 'refund', 'grant'] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

export type LedgerRow = Awaited<ReturnType<typeof ledgerRows>>['rows'][number];

export type BillingTransaction = TransactionView;

export type CheckoutAnswer = Awaited<ReturnType<typeof startCheckout>>;

export function useBillingSummary(options: { refetchInterval?: number | false } = {}) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.billing(workspaceId, 'summary'),
    queryFn: () => apiFetch<BillingSummary>('/v1/billing/summary', { workspaceId }),
    enabled: workspaceId !== null,
    refetchInterval: options.refetchInterval,
  });
}

export function useBillingUsage(days: number) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.billing(workspaceId, 'usage', { days }),
    queryFn: () => apiFetch<BillingUsage>(`/v1/billing/usage?days=${days}`, { workspaceId }),
    enabled: workspaceId !== null,
    placeholderData: (previous) => previous,
  });
}

export function useBillingLedger(kind: LedgerKind | 'all') {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.billing(workspaceId, 'ledger', { kind }),
    queryFn: async () => {
      const query = new URLSearchParams({ limit: '400', months: '12' });
      if (kind !== 'all') query.set('kind', kind);
      return (await apiFetch<{ rows: LedgerRow[] }>(`/v1/billing/ledger?${query}`, { workspaceId })).rows;
    },
    enabled: workspaceId !== null,
    placeholderData: (previous) => previous,
  });
}

export function useBillingTransactions() {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.billing(workspaceId, 'transactions'),
    queryFn: async () => (await apiFetch<{ items: BillingTransaction[] }>('/v1/billing/transactions', { workspaceId })).items,
    enabled: workspaceId !== null,
  });
}

/** Settled: the processor will not change its mind without a refund. */
export const settledStatuses = new Set(['paid', 'failed', 'expired', 'refunded', 'partially_refunded', 'canceled', 'cancelled']);

/** One top-up by the processor's id (the `?checkout=` the processor sends the payer back with), polled until it settles. */
export function useBillingTransaction(providerTxnId: string | null) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.billing(workspaceId, 'transaction', { providerTxnId }),
    queryFn: () => apiFetch<BillingTransaction>(`/v1/billing/transactions/${encodeURIComponent(providerTxnId!)}`, { workspaceId }),
    enabled: workspaceId !== null && providerTxnId !== null,
    refetchInterval: (query) => (query.state.data && settledStatuses.has(query.state.data.status) ? false : 1_500),
    // A checkout just created may not be readable for a moment; the poll covers that.
    retry: (count, error) => count < 3 && !(error as { status?: number }).status?.toString().startsWith('4'),
  });
}

/** Refetches every billing query of the active workspace (after a payment settles). */
export function useRefreshBilling() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return () => refresh(queryClient, { queryKey: queryKeys.billing(workspaceId) });
}

export function useCheckout() {
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (topupUsdCents: number) => apiFetch<CheckoutAnswer>('/v1/billing/checkout', { method: 'POST', body: { topupUsdCents }, workspaceId }),
  });
}
