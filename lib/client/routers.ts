'use client';
// Routers of the active workspace: list, one router, create (with its first key, shown once),
// update, delete, the four switches, the agent defaults, and the router the dashboard opens.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createRouter, getAgentSettings, getRouterSettings } from '@/lib/routers/manage-routers';
import type { createRouterSchema, updateAgentSettingsSchema, updateRouterSchema, updateRouterSettingsSchema } from '@/lib/routers/schemas';
import type { serializeRouter } from '@/lib/routers/serialize';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace, type Me } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';
import { rememberRevealedKey } from './revealed-keys';

export type Router = ReturnType<typeof serializeRouter>;
/** POST /v1/routers: the router plus its first key with `apiKey.plaintextKey`, shown only then. */
export type CreatedRouter = Awaited<ReturnType<typeof createRouter>>;
export type RouterSettings = Awaited<ReturnType<typeof getRouterSettings>>;
export type AgentSettings = Awaited<ReturnType<typeof getAgentSettings>>;

const routerPath = (id: string) => `/v1/routers/${encodeURIComponent(id)}`;

export function useRouters() {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.routers(workspaceId),
    queryFn: async () => (await apiFetch<{ items: Router[]; total: number }>('/v1/routers', { workspaceId })).items,
    enabled: workspaceId !== null,
  });
}

export function useRouterInstance(id: string) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.router(workspaceId, id),
    queryFn: () => apiFetch<Router>(routerPath(id), { workspaceId }),
    enabled: workspaceId !== null,
  });
}

/** After a router is created, renamed or deleted: the lists that name routers (routers page, /v1/me). */
function refreshRouterLists(queryClient: ReturnType<typeof useQueryClient>, workspaceId: string | null) {
  return Promise.all([refresh(queryClient, { queryKey: queryKeys.routers(workspaceId) }), refresh(queryClient, { queryKey: queryKeys.me })]);
}

export function useCreateRouter() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: z.input<typeof createRouterSchema>) => apiFetch<CreatedRouter>('/v1/routers', { method: 'POST', body: input, workspaceId }),
    onSuccess: (router) => {
      // The Connect tab fills this key into its snippets for as long as the page stays open.
      rememberRevealedKey(router.id, router.apiKey.plaintextKey);
      return refreshRouterLists(queryClient, workspaceId);
    },
  });
}

export function useUpdateRouter(id: string) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: z.input<typeof updateRouterSchema>) => apiFetch<Router>(routerPath(id), { method: 'PATCH', body: input, workspaceId }),
    onSuccess: (router) => {
      queryClient.setQueryData(queryKeys.router(workspaceId, id), router);
      return refreshRouterLists(queryClient, workspaceId);
    },
  });
}

export function useDeleteRouter() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ id: string; slug: string }>(routerPath(id), { method: 'DELETE', workspaceId }),
    onSuccess: (deleted) => {
      queryClient.removeQueries({ queryKey: queryKeys.router(workspaceId, deleted.id) });
      return refreshRouterLists(queryClient, workspaceId);
    },
  });
}

export function useRouterSettings(id: string) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.routerPart(workspaceId, id, 'settings'),
    queryFn: () => apiFetch<RouterSettings>(`${routerPath(id)}/settings`, { workspaceId }),
    enabled: workspaceId !== null,
  });
}

export function useUpdateRouterSettings(id: string) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: z.input<typeof updateRouterSettingsSchema>) =>
      apiFetch<RouterSettings>(`${routerPath(id)}/settings`, { method: 'PATCH', body: input, workspaceId }),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.routerPart(workspaceId, id, 'settings'), settings),
  });
}

export function useAgentSettings(id: string) {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.routerPart(workspaceId, id, 'agent-settings'),
    queryFn: () => apiFetch<AgentSettings>(`${routerPath(id)}/agent-settings`, { workspaceId }),
    enabled: workspaceId !== null,
  });
}

export function useUpdateAgentSettings(id: string) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: z.input<typeof updateAgentSettingsSchema>) =>
      apiFetch<AgentSettings>(`${routerPath(id)}/agent-settings`, { method: 'PATCH', body: input, workspaceId }),
    onSuccess: (settings) => queryClient.setQueryData(queryKeys.routerPart(workspaceId, id, 'agent-settings'), settings),
  });
}

/** POST /v1/routers/active: the router the dashboard opens next time. Updates /v1/me in place. */
export function useSetActiveRouter() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (routerInstanceId: string) =>
      apiFetch<{ activeRouterInstanceId: string }>('/v1/routers/active', { method: 'POST', body: { routerInstanceId }, workspaceId }),
    onSuccess: ({ activeRouterInstanceId }) => queryClient.setQueryData<Me>(queryKeys.me, (me) => (me ? { ...me, activeRouterInstanceId } : me)),
  });
}
