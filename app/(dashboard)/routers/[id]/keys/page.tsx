import type { Metadata } from 'next';
import { KeysTab } from '@/components/routers/keys/keys-tab';

export const metadata: Metadata = { title: 'Router keys' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <KeysTab routerId={id} />;
}
