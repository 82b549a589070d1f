import type { InvalidateQueryFilters, QueryClient } from '@tanstack/react-query';

/**
 * Refetches after a change. Fetches already in flight are cancelled first: a query still loading
 * its first answer would otherwise keep that answer, which the server computed before the change.
 */
export async function refresh(queryClient: QueryClient, filters?: InvalidateQueryFilters): Promise<void> {
  await queryClient.cancelQueries(filters);
  await queryClient.invalidateQueries(filters);
}
