import type { Metadata } from 'next';
import { Suspense } from 'react';
import { SessionsPage } from '@/components/sessions/sessions-page';

export const metadata: Metadata = { title: 'Sessions' };

export default function Page() {
  // The filters live in the URL's query (useSearchParams).
  return (
    <Suspense>
      <SessionsPage />
    </Suspense>
  );
}
