import type { Metadata } from 'next';
import { ComingSoon } from '@/components/dashboard/coming-soon';

export const metadata: Metadata = { title: 'Sessions' };

export default function Page() {
  return <ComingSoon area="sessions" />;
}
