import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { KeysTab } from '@/components/routers/keys/keys-tab';
import { publicProxyHttpUrl } from '@/lib/api/unknown-endpoint';

export const metadata: Metadata = { title: 'Router keys' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The chat link card shows the proxy's MCP URL: the same address the Connect tab gives scripts.
  const proxyUrl = publicProxyHttpUrl((await headers()).get('host'));
  return <KeysTab routerId={id} proxyUrl={proxyUrl} />;
}
