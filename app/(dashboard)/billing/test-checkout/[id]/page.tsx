import type { Metadata } from 'next';
import { TestCheckoutView } from '@/components/billing/test-checkout';

export const metadata: Metadata = { title: 'Test checkout' };

// The test mode's checkout page (no STRIPE_SECRET_KEY): the checkout URL POST /v1/billing/checkout returns.
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <TestCheckoutView id={id} />;
}
