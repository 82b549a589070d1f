'use client';
// The operator's local mail outbox (GET /api/admin/outbox): mail written to the database when no
// SMTP server is configured or sending failed.
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from './api-fetch';
import { queryKeys } from './query-keys';

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

export function useOutbox() {
  return useQuery({
    queryKey: queryKeys.outbox,
    queryFn: () => apiFetch<{ items: OutboxMail[]; total: number }>('/api/admin/outbox'),
  });
}
