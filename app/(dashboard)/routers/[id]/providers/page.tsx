import type { Metadata } from 'next';
import { ProvidersTab } from '@/components/routers/providers/providers-tab';

export const metadata: Metadata = { title: 'Router providers' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ProvidersTab routerId={id} />;
}
