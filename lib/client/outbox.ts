'use client';
// The local mail outbox as the signed-in user may read it (GET /api/outbox): mail written to the
// database when no SMTP server is configured or sending failed. Mail to the user, and invitations
// they sent, come with their text; the operator also gets everyone else's, with `text: null`.
import { useQuery } from '@tanstack/react-query';
import type { OutboxItem } from '@/lib/mail/outbox';
import { apiFetch } from './api-fetch';
import { queryKeys } from './query-keys';

export type OutboxMail = OutboxItem;

export function useOutbox() {
  return useQuery({
    queryKey: queryKeys.outbox,
    queryFn: () => apiFetch<{ items: OutboxMail[]; total: number }>('/api/outbox'),
  });
}
