import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RecordingsPage } from '@/components/recordings/recordings-page';

export const metadata: Metadata = { title: 'Recordings' };

export default function Page() {
  // The filters live in the URL's query (useSearchParams).
  return (
    <Suspense>
      <RecordingsPage />
    </Suspense>
  );
}
