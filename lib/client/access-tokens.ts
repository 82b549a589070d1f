'use client';
// The caller's account tokens (acct_…). Create and rotate answer with the plaintext, once.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { createAccessToken, listAccessTokens } from '@/lib/tokens/access-tokens';
import { apiFetch } from './api-fetch';
import { queryKeys } from './query-keys';
import { refresh } from './refresh';

export type AccessTokenList = Awaited<ReturnType<typeof listAccessTokens>>;
export type AccessToken = AccessTokenList['items'][number];
/** Create and rotate: the token plus `plaintextToken`, which the server never shows again. */
export type RevealedAccessToken = Awaited<ReturnType<typeof createAccessToken>>;

export function useAccessTokens() {
  return useQuery({ queryKey: queryKeys.accessTokens, queryFn: () => apiFetch<AccessTokenList>('/v1/access-tokens') });
}

function useTokenMutation<I, O>(request: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: request, onSuccess: () => refresh(queryClient, { queryKey: queryKeys.accessTokens }) });
}

const tokenPath = (id: string) => `/v1/access-tokens/${encodeURIComponent(id)}`;

export const useCreateAccessToken = () =>
  useTokenMutation((input: { label: string }) => apiFetch<RevealedAccessToken>('/v1/access-tokens', { method: 'POST', body: input }));
export const useRotateAccessToken = () => useTokenMutation((id: string) => apiFetch<RevealedAccessToken>(`${tokenPath(id)}/rotate`, { method: 'POST' }));
export const useRevokeAccessToken = () => useTokenMutation((id: string) => apiFetch<AccessToken>(`${tokenPath(id)}/revoke`, { method: 'POST' }));
export const useDeleteAccessToken = () => useTokenMutation((id: string) => apiFetch<{ id: string }>(tokenPath(id), { method: 'DELETE' }));
