import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { ConnectTab } from '@/components/routers/connect/connect-tab';
import { publicProxyHttpUrl } from '@/lib/api/unknown-endpoint';
import { settings } from '@/lib/config/settings';

export const metadata: Metadata = { title: 'Connect' };

/** The proxy's public WebSocket address: PUBLIC_PROXY_URL, else the host the dashboard was opened on with the proxy's port. */
async function publicProxyUrl(): Promise<{ url: string; configured: boolean }> {
  const url = publicProxyHttpUrl((await headers()).get('host')).replace(/^http/, 'ws');
  return { url, configured: settings().publicProxyUrl !== null };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const proxy = await publicProxyUrl();
  return <ConnectTab routerId={id} proxyUrl={proxy.url} proxyUrlConfigured={proxy.configured} />;
}
