import type { Metadata } from 'next';
import { ComingSoon } from '@/components/dashboard/coming-soon';

export const metadata: Metadata = { title: 'Webhooks' };

export default function Page() {
  return <ComingSoon area="webhooks" />;
}
