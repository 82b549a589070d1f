'use client';
// The test mode's checkout page (GET /api/billing/test-checkout/:id) and its two actions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TestCheckoutView } from '@/lib/billing/test-checkout';
import { apiFetch } from './api-fetch';

export type TestCheckout = TestCheckoutView;

// Not workspace-scoped (the operator may confirm any workspace's top-up), so outside queryKeys' workspace tree.
const key = (id: string) => ['test-checkout', id] as const;

export function useTestCheckout(id: string) {
  return useQuery({ queryKey: key(id), queryFn: () => apiFetch<TestCheckout>(`/api/billing/test-checkout/${encodeURIComponent(id)}`) });
}

export function useTestCheckoutAction(id: string, action: 'confirm' | 'cancel') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ status: string; redirectTo: string }>(`/api/billing/test-checkout/${encodeURIComponent(id)}/${action}`, { method: 'POST' }),
    // The wallet, its transactions and this page all changed.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
