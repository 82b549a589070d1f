import type { Metadata } from 'next';
import { Suspense } from 'react';
import { BillingPage } from '@/components/billing/billing-page';

export const metadata: Metadata = { title: 'Billing' };

export default function Page() {
  // `?checkout=` (back from the payment processor) is read with useSearchParams.
  return (
    <Suspense>
      <BillingPage />
    </Suspense>
  );
}
