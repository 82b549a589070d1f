'use client';
// Providers of one router (they act on the router in X-Router-Id): list, add (address or key
// form, tested by the server before it saves), edit, delete, test, reprobe, and the checks the add
// dialog runs before saving (test-url, verify-key). Plus the router's live provider state.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TestOutcome } from '@/lib/providers/check-provider';
import type { CreateProviderInput, UpdateProviderInput, VerifyKeyInput, addressCheckSchema } from '@/lib/providers/schemas';
import type { RouterLiveStatus } from '@/lib/routers/live-status';
import type { serializeProvider } from '@/lib/providers/serialize';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type Provider = ReturnType<typeof serializeProvider>;
export type Capabilities = Provider['capabilities'];
export type { RouterLiveStatus, TestOutcome };
export type LiveProvider = RouterLiveStatus['providers'][number];

/** The largest page the API serves; a router with more providers than this is not a dashboard case. */
const PAGE_SIZE = 100;

const providerPath = (slug: string) => `/v1/providers/${encodeURIComponent(slug)}`;

export function useProviders(routerId: string) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.routerPart(workspaceId, routerId, 'providers'),
    queryFn: () => apiFetch<{ items: Provider[]; total: number }>(`/v1/providers?pageSize=${PAGE_SIZE}`, { workspaceId, routerId }),
    enabled: workspaceId !== null,
  });
}

/** Mutations of one router's providers refresh its provider list, its live state and the router's provider count. */
function useProviderMutation<I, O>(routerId: string, request: (input: I, ids: { workspaceId: string | null; routerId: string }) => Promise<O>) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: I) => request(input, { workspaceId, routerId }),
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.router(workspaceId, routerId) }),
  });
}

export const useCreateProvider = (routerId: string) =>
  useProviderMutation(routerId, (input: CreateProviderInput, ids) => apiFetch<Provider>('/v1/providers', { method: 'POST', body: input, ...ids }));

export const useUpdateProvider = (routerId: string) =>
  useProviderMutation(routerId, ({ slug, ...input }: UpdateProviderInput & { slug: string }, ids) =>
    apiFetch<Provider>(providerPath(slug), { method: 'PATCH', body: input, ...ids }),
  );

export const useDeleteProvider = (routerId: string) =>
  useProviderMutation(routerId, (slug: string, ids) => apiFetch<{ slug: string }>(providerPath(slug), { method: 'DELETE', ...ids }));

export const useReprobeProvider = (routerId: string) =>
  useProviderMutation(routerId, (slug: string, ids) => apiFetch<Provider>(`${providerPath(slug)}/reprobe`, { method: 'POST', ...ids }));

/** POST /v1/providers/:slug/test: a saved provider, checked again. Changes nothing. */
export function useTestProvider(routerId: string) {
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (slug: string) => apiFetch<TestOutcome>(`${providerPath(slug)}/test`, { method: 'POST', workspaceId, routerId }),
  });
}

/** POST /v1/providers/test-url: the address the add dialog holds, before it is saved. */
export function useTestUrl(routerId: string) {
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: z.input<typeof addressCheckSchema>) =>
      apiFetch<TestOutcome>('/v1/providers/test-url', { method: 'POST', body: input, workspaceId, routerId }),
  });
}

/** POST /v1/providers/verify-key: the vendor checks the key without starting a (billed) browser. */
export function useVerifyKey(routerId: string) {
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: Pick<VerifyKeyInput, 'adapterKind' | 'credentials'> & { options?: object }) =>
      apiFetch<{ verified: true; provider: string }>('/v1/providers/verify-key', { method: 'POST', body: input, workspaceId, routerId }),
  });
}

export const LIVE_STATUS_INTERVAL_MS = 4_000;

/** The proxy's view of the router's providers (health, active sessions, cooldown), polled (every 4 s unless `intervalMs` says otherwise). */
export function useRouterLiveStatus(
  routerId: string,
  { enabled = true, intervalMs = LIVE_STATUS_INTERVAL_MS }: { enabled?: boolean; intervalMs?: number } = {},
) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.routerPart(workspaceId, routerId, 'status'),
    queryFn: () => apiFetch<RouterLiveStatus>(`/api/routers/${encodeURIComponent(routerId)}/status`, { workspaceId }),
    enabled: enabled && workspaceId !== null,
    refetchInterval: intervalMs,
    staleTime: 0,
  });
}
