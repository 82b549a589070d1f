import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { ConnectTab } from '@/components/routers/connect/connect-tab';

export const metadata: Metadata = { title: 'Connect' };

/**
 * The proxy's public WebSocket address. PUBLIC_PROXY_URL when the operator set it (a TLS
 * terminator, another host); else the host the dashboard was opened on with the proxy's port
 * (PORT, which `npm start` gives every process), since both run on the same machine.
 */
async function publicProxyUrl(): Promise<{ url: string; configured: boolean }> {
  const configured = process.env.PUBLIC_PROXY_URL;
  if (configured) return { url: configured.replace(/^http/, 'ws').replace(/\/+$/, ''), configured: true };
  let hostname = 'localhost';
  try {
    hostname = new URL(`http://${(await headers()).get('host') ?? 'localhost'}`).hostname;
  } catch {
    // a malformed Host header: keep localhost
  }
  return { url: `ws://${hostname}:${process.env.PORT ?? 9500}`, configured: false };
}

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const proxy = await publicProxyUrl();
  return <ConnectTab routerId={id} proxyUrl={proxy.url} proxyUrlConfigured={proxy.configured} />;
}
