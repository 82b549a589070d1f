import type { Metadata } from 'next';
import { RoutersPage } from '@/components/routers/routers-page';

export const metadata: Metadata = { title: 'Routers' };

export default function Page() {
  return <RoutersPage />;
}
