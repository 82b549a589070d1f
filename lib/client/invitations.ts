'use client';
// Invitations: the inviting side (pending list, invite, resend, cancel) scoped to the active
// workspace, and the invited side (look up, accept, decline) addressed by the link's token.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { serializeInvitation } from '@/lib/invitations/serialize';
import type { createInvitation } from '@/lib/invitations/manage-invitations';
import type { acceptInvitation, lookupInvitation } from '@/lib/invitations/respond-to-invitation';
import { apiFetch } from './api-fetch';
import { useActiveWorkspace } from './me';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type Invitation = ReturnType<typeof serializeInvitation>;
/** What inviting and resending answer: the invitation and how its e-mail was delivered. */
export type SentInvitation = Awaited<ReturnType<typeof createInvitation>>;
export type InvitationLookup = Awaited<ReturnType<typeof lookupInvitation>>;

export function useInvitations() {
  const { workspaceId } = useActiveWorkspace();
  return useQuery({
    queryKey: queryKeys.invitations(workspaceId),
    queryFn: async () => (await apiFetch<{ items: Invitation[]; total: number }>('/v1/invitations', { workspaceId })).items,
    enabled: workspaceId !== null,
  });
}

function useInvitationMutation<T, O>(request: (workspaceId: string | null, input: T) => Promise<O>) {
  const queryClient = useQueryClient();
  const { workspaceId } = useActiveWorkspace();
  return useMutation({
    mutationFn: (input: T) => request(workspaceId, input),
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.invitations(workspaceId) }),
  });
}

export const useCreateInvitation = () =>
  useInvitationMutation((workspaceId, input: { email: string; role: 'admin' | 'member' }) =>
    apiFetch<SentInvitation>('/v1/invitations', { method: 'POST', body: input, workspaceId }),
  );

export const useResendInvitation = () =>
  useInvitationMutation((workspaceId, id: string) =>
    apiFetch<SentInvitation>(`/v1/invitations/${encodeURIComponent(id)}/resend`, { method: 'POST', workspaceId }),
  );

export const useCancelInvitation = () =>
  useInvitationMutation((workspaceId, id: string) => apiFetch(`/v1/invitations/${encodeURIComponent(id)}`, { method: 'DELETE', workspaceId }));

export function useInvitationLookup(token: string) {
  return useQuery({
    queryKey: queryKeys.invitationLookup(token),
    queryFn: () => apiFetch<InvitationLookup>(`/v1/invitations/${encodeURIComponent(token)}/lookup`),
  });
}

export function useRespondToInvitation(token: string) {
  const queryClient = useQueryClient();
  const path = `/v1/invitations/${encodeURIComponent(token)}`;
  const accept = useMutation({
    mutationFn: () => apiFetch<Awaited<ReturnType<typeof acceptInvitation>>>(`${path}/accept`, { method: 'POST' }),
    // Accepting makes the invited workspace the active one. The lookup is left alone: the used link
    // would now answer not_found while the page moves on.
    onSuccess: () => refresh(queryClient, { predicate: (query) => query.queryKey[0] !== 'invitation-lookup' }),
  });
  const decline = useMutation({
    mutationFn: () => apiFetch<{ declined: boolean }>(`${path}/decline`, { method: 'POST' }),
  });
  return { accept, decline };
}
