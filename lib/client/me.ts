'use client';
// The signed-in user (GET /v1/me) and what acts on the account itself: name and password,
// e-mail verification, deletion and restore.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { getMe } from '@/lib/users/get-me';
import type { requestAccountDeletion } from '@/lib/users/delete-account';
import type { updateAccountName } from '@/lib/users/update-account';
import { apiFetch } from './api-fetch';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type Me = Awaited<ReturnType<typeof getMe>>;
export type Role = Me['workspaces'][number]['role'];

export function useMe() {
  return useQuery({ queryKey: queryKeys.me, queryFn: () => apiFetch<Me>('/v1/me') });
}

/** The active workspace with the caller's role in it, and what that role may do. */
export function useActiveWorkspace() {
  const { data: me } = useMe();
  const workspace = me?.workspaces.find((w) => w.id === me.activeWorkspaceId) ?? null;
  const role = workspace?.role ?? null;
  return {
    workspace,
    workspaceId: workspace?.id ?? null,
    role,
    isOwner: role === 'owner',
    /** Owner or admin: invite, remove members, change configuration. */
    canManage: role === 'owner' || role === 'admin',
  };
}

export function useResendVerification() {
  return useMutation({ mutationFn: () => apiFetch<{ sent?: boolean; alreadyVerified?: boolean }>('/api/verify-email/resend', { method: 'POST' }) });
}

export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => apiFetch<{ verified: boolean }>('/api/verify-email', { method: 'POST', body: { token } }),
    onSuccess: () => refresh(queryClient, { queryKey: queryKeys.me }),
  });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: () => apiFetch<Awaited<ReturnType<typeof requestAccountDeletion>>>('/v1/account', { method: 'DELETE' }) });
}

export function useUndeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ restored: boolean }>('/v1/account/undelete', { method: 'POST' }),
    onSuccess: () => refresh(queryClient),
  });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { name: string }) => apiFetch<Awaited<ReturnType<typeof updateAccountName>>>('/v1/account', { method: 'PATCH', body: input }),
    // The name shows in the menu and in every workspace's member list.
    onSuccess: () => refresh(queryClient),
  });
}

/** Signs out every other session; the server renews this one's cookie in the same answer. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      apiFetch<{ changed: true }>('/v1/account/password', { method: 'POST', body: input }),
  });
}
