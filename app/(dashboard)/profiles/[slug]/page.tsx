import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { ProfileDetail } from '@/components/profiles/profile-detail';
import { publicProxyHttpUrl } from '@/lib/api/unknown-endpoint';

export const metadata: Metadata = { title: 'Profile' };

export default async function Page({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  // The proxy's address as scripts dial it, for the profile's connect snippet.
  const proxyUrl = publicProxyHttpUrl((await headers()).get('host')).replace(/^http/, 'ws');
  return <ProfileDetail slug={slug} proxyUrl={proxyUrl} />;
}
