import type { Metadata } from 'next';
import { Suspense } from 'react';
import { TracesPage } from '@/components/traces/traces-page';

export const metadata: Metadata = { title: 'Traces' };

export default function Page() {
  // The router lives in the URL's query (useSearchParams).
  return (
    <Suspense>
      <TracesPage />
    </Suspense>
  );
}
