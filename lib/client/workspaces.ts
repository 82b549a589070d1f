'use client';
// The caller's workspaces: list, switch, create, leave, delete. Anything that changes which
// workspace is active refetches every query, because every page shows the active workspace.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { workspaceRef } from '@/lib/workspaces/serialize';
import { apiFetch } from './api-fetch';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type WorkspaceRef = ReturnType<typeof workspaceRef>;

export function useWorkspaces() {
  return useQuery({
    queryKey: queryKeys.workspaces,
    queryFn: async () => (await apiFetch<{ items: WorkspaceRef[] }>('/v1/workspaces')).items,
  });
}

export function useSwitchWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (workspaceId: string) => apiFetch('/v1/workspaces/active', { method: 'POST', body: { workspaceId } }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => apiFetch<WorkspaceRef>('/v1/workspaces', { method: 'POST', body: input }),
    // The server makes the new workspace the active one.
    onSuccess: () => refresh(queryClient),
  });
}

export function useLeaveWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (workspaceId: string) => apiFetch('/v1/workspaces/current/leave', { method: 'POST', workspaceId }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useDeleteWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { workspaceId: string; confirm: string }) =>
      apiFetch('/v1/workspaces/current', { method: 'DELETE', workspaceId: input.workspaceId, body: { confirm: input.confirm } }),
    onSuccess: () => refresh(queryClient),
  });
}
