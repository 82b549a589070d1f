'use client';
// The instance operator's tools over every workspace (docs/api.md, Operator): search, grant
// credits, enterprise, suspension, the audit log of it all, and claiming the operator's rights with
// the link `npm start` prints. Only the operator (`isAdmin` in /v1/me) gets answers.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { listOperatorActions } from '@/lib/admin/actions';
import type { serializeAdminWorkspace } from '@/lib/admin/workspaces';
import type { listPendingTestCheckouts } from '@/lib/billing/test-checkout';
import { apiFetch } from './api-fetch';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type AdminWorkspace = ReturnType<typeof serializeAdminWorkspace>;
export type OperatorAction = Awaited<ReturnType<typeof listOperatorActions>>['items'][number];
export type PendingTestCheckout = Awaited<ReturnType<typeof listPendingTestCheckouts>>['items'][number];

const path = (id: string) => `/v1/admin/workspaces/${encodeURIComponent(id)}`;

export function useAdminWorkspaces(q: string) {
  return useQuery({
    queryKey: queryKeys.adminWorkspaces(q),
    queryFn: () =>
      apiFetch<{ items: AdminWorkspace[]; total: number; page: number; pageSize: number }>(
        `/v1/admin/workspaces?${new URLSearchParams({ q, pageSize: '50' })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

function useAdminMutation<I, O>(request: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    // The operator may be changing their own workspace: its billing and /v1/me move too.
    onSuccess: () =>
      Promise.all([
        refresh(queryClient, { queryKey: queryKeys.adminWorkspaces() }),
        refresh(queryClient, { queryKey: queryKeys.adminActions }),
        refresh(queryClient, { queryKey: ['workspace'] }),
        refresh(queryClient, { queryKey: queryKeys.me }),
      ]),
  });
}

export const useGrantCredits = () =>
  useAdminMutation(({ id, amountCents, note }: { id: string; amountCents: number; note?: string }) =>
    apiFetch<{ grant: { cause: string; amountCents: number; note: string }; workspace: AdminWorkspace }>(`${path(id)}/credits`, {
      method: 'POST',
      body: { amountCents, note: note || undefined },
    }),
  );

export const useUpdateAdminWorkspace = () =>
  useAdminMutation(({ id, ...body }: { id: string; enterprise?: boolean; suspended?: boolean }) =>
    apiFetch<AdminWorkspace>(path(id), { method: 'PATCH', body }),
  );

/** The newest entries of the operator's audit log (GET /v1/admin/actions). */
export function useOperatorActions() {
  return useQuery({
    queryKey: queryKeys.adminActions,
    queryFn: () => apiFetch<{ items: OperatorAction[]; total: number }>('/v1/admin/actions?pageSize=50'),
  });
}

/** Test top-ups waiting for the operator's confirmation (GET /v1/admin/test-checkouts). */
export function usePendingTestCheckouts() {
  return useQuery({ queryKey: ['admin-test-checkouts'], queryFn: () => apiFetch<{ items: PendingTestCheckout[] }>('/v1/admin/test-checkouts') });
}

/** Opens the claim link: the signed-in account becomes the operator (POST /api/operator/claim). */
export function useClaimOperator() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiFetch<{ operator: true; email: string }>('/api/operator/claim', { method: 'POST', body: { token } }),
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.me }),
  });
}
