'use client';
// Router keys (rkey_…) and the chat link of one router. Create and rotate answer with the
// plaintext once; the dashboard remembers it in memory so the Connect tab can fill it in.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { getChatLink } from '@/lib/keys/chat-links';
import type { currentRouterKeyPlaintext, issueRouterKey, listRouterKeys } from '@/lib/keys/manage-router-keys';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';
import { forgetRevealedKey, rememberRevealedKey } from './revealed-keys';

export type RouterKey = Awaited<ReturnType<typeof listRouterKeys>>['items'][number];
/** Create and rotate: the key plus `plaintextKey`, which the server never shows again. */
export type RevealedRouterKey = Awaited<ReturnType<typeof issueRouterKey>>;
export type ChatLink = NonNullable<Awaited<ReturnType<typeof getChatLink>>>;

export function useRouterKeys(routerId: string) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.routerPart(workspaceId, routerId, 'keys'),
    queryFn: async () => (await apiFetch<{ items: RouterKey[]; total: number }>('/v1/api-keys', { workspaceId, routerId })).items,
    enabled: workspaceId !== null,
  });
}

/** Key changes refresh the router (its live-key count, the status the proxy reports with a key) and the routers list. */
function useKeyMutation<I, O>(
  routerId: string,
  request: (input: I, ids: { workspaceId: string | null; routerId: string }) => Promise<O>,
  after?: (output: O, input: I) => void,
) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: I) => request(input, { workspaceId, routerId }),
    onSuccess: (output, input) => {
      after?.(output, input);
      return Promise.all([
        refresh(queryClient, { queryKey: queryKeys.router(workspaceId, routerId) }),
        refresh(queryClient, { queryKey: queryKeys.routers(workspaceId) }),
      ]);
    },
  });
}

export const useCreateRouterKey = (routerId: string) =>
  useKeyMutation(
    routerId,
    ({ label }: { label: string }, ids) =>
      apiFetch<RevealedRouterKey>('/v1/api-keys', { method: 'POST', body: { label, routerInstanceId: ids.routerId }, ...ids }),
    (key) => rememberRevealedKey(routerId, key.plaintextKey),
  );

export const useRotateRouterKeys = (routerId: string) =>
  useKeyMutation(
    routerId,
    (label: string | undefined, ids) =>
      apiFetch<RevealedRouterKey>('/v1/api-keys/rotate', { method: 'POST', body: { routerInstanceId: ids.routerId, ...(label ? { label } : {}) }, ...ids }),
    (key) => rememberRevealedKey(routerId, key.plaintextKey),
  );

export const useRevokeRouterKey = (routerId: string) =>
  useKeyMutation(
    routerId,
    (key: RouterKey, ids) => apiFetch<RouterKey>(`/v1/api-keys/${encodeURIComponent(key.id)}`, { method: 'DELETE', ...ids }),
    (key) => forgetRevealedKey(routerId, key.prefix),
  );

/** GET /v1/api-keys/current/plaintext (owner/admin): the newest live key, on request only. */
export function useFetchCurrentKey(routerId: string) {
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: () => apiFetch<Awaited<ReturnType<typeof currentRouterKeyPlaintext>>>('/v1/api-keys/current/plaintext', { workspaceId, routerId }),
    onSuccess: ({ plaintextKey }) => rememberRevealedKey(routerId, plaintextKey),
  });
}

const chatLinkQuery = (routerId: string) => `routerInstanceId=${encodeURIComponent(routerId)}`;

export function useChatLink(routerId: string, { enabled = true }: { enabled?: boolean } = {}) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.routerPart(workspaceId, routerId, 'chat-link'),
    queryFn: () => apiFetch<ChatLink | null>(`/v1/mcp-links/current?${chatLinkQuery(routerId)}`, { workspaceId }),
    enabled: enabled && workspaceId !== null,
  });
}

function useChatLinkMutation<O>(routerId: string, request: (workspaceId: string | null) => Promise<O>) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: () => request(workspaceId),
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.routerPart(workspaceId, routerId, 'chat-link') }),
  });
}

export const useRotateChatLink = (routerId: string) =>
  useChatLinkMutation(routerId, (workspaceId) => apiFetch<ChatLink>(`/v1/mcp-links/rotate?${chatLinkQuery(routerId)}`, { method: 'POST', workspaceId }));

export const useDeleteChatLink = (routerId: string) =>
  useChatLinkMutation(routerId, (workspaceId) =>
    apiFetch<{ id: string }>(`/v1/mcp-links/current?${chatLinkQuery(routerId)}`, { method: 'DELETE', workspaceId }),
  );
