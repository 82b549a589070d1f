'use client';
// Members of the active workspace.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { serializeMember } from '@/lib/workspaces/serialize';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type Member = ReturnType<typeof serializeMember>;

export function useMembers() {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.members(workspaceId),
    queryFn: async () => (await apiFetch<{ items: Member[]; total: number }>('/v1/workspaces/current/members', { workspaceId })).items,
    enabled: workspaceId !== null,
  });
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (userId: string) => apiFetch(`/v1/workspaces/current/members/${encodeURIComponent(userId)}`, { method: 'DELETE', workspaceId }),
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.members(workspaceId) }),
  });
}
