import type { Metadata } from 'next';
import { SettingsTab } from '@/components/routers/settings/settings-tab';

export const metadata: Metadata = { title: 'Router settings' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SettingsTab routerId={id} />;
}
