import type { Metadata } from 'next';
import { ComingSoon } from '@/components/dashboard/coming-soon';

export const metadata: Metadata = { title: 'Traces' };

export default function Page() {
  return <ComingSoon area="traces" />;
}
