'use client';
// Webhooks of the active workspace: list, create, edit, delete, send a test, the delivery log.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { listDeliveryAttempts } from '@/lib/webhooks/delivery-log';
import type { CreateWebhookInput, UpdateWebhookInput } from '@/lib/webhooks/schemas';
import type { WebhookResource } from '@/lib/webhooks/serialize';
import type { sendTestDelivery } from '@/lib/webhooks/test-webhook';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type Webhook = WebhookResource;
export type WebhookTestResult = Awaited<ReturnType<typeof sendTestDelivery>>;
export type DeliveryAttempt = Awaited<ReturnType<typeof listDeliveryAttempts>>['items'][number];

const path = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;

export function useWebhooks() {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.webhooks(workspaceId),
    // A workspace holds at most 100 webhooks: one page of 100 is all of them.
    queryFn: async () => (await apiFetch<{ items: Webhook[]; total: number }>('/v1/webhooks?pageSize=100', { workspaceId })).items,
    enabled: workspaceId !== null,
  });
}

export function useWebhookDeliveries(webhookId: string | null) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.webhookDeliveries(workspaceId, webhookId ?? 'none'),
    queryFn: async () => (await apiFetch<{ items: DeliveryAttempt[]; total: number }>(`${path(webhookId!)}/deliveries?limit=50`, { workspaceId })).items,
    enabled: workspaceId !== null && webhookId !== null,
  });
}

function useWebhookMutation<I, O>(request: (workspaceId: string | null, input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: I) => request(workspaceId, input),
    // The list and every delivery log live under the webhooks key.
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.webhooks(workspaceId) }),
  });
}

export const useCreateWebhook = () =>
  useWebhookMutation((workspaceId, input: CreateWebhookInput) => apiFetch<Webhook>('/v1/webhooks', { method: 'POST', body: input, workspaceId }));

export const useUpdateWebhook = () =>
  useWebhookMutation((workspaceId, { id, ...input }: UpdateWebhookInput & { id: string }) =>
    apiFetch<Webhook>(path(id), { method: 'PATCH', body: input, workspaceId }),
  );

export const useDeleteWebhook = () => useWebhookMutation((workspaceId, id: string) => apiFetch<{ id: string }>(path(id), { method: 'DELETE', workspaceId }));

export const useTestWebhook = () =>
  useWebhookMutation((workspaceId, id: string) => apiFetch<WebhookTestResult>(`${path(id)}/test`, { method: 'POST', workspaceId }));
