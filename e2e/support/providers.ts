// Test fixtures for routing: provider rows written the way the control plane stores them,
// and misbehaving upstreams (refusing, hanging after TCP accept, rejecting the upgrade).
import http from 'node:http';
import net from 'node:net';
import { freePort } from '../../scripts/lib/ports';

export async function addProvider(workspaceId: string, routerId: string, p: { slug: string; url: string; priority?: number; weight?: number; maxConcurrent?: number | null; enabled?: boolean; headers?: Record<string, string> }) {
  const { db } = await import('../../lib/db');
  const { encryptText } = await import('../../lib/crypto/encryption');
  const provider = await db.provider.create({
    data: {
      workspaceId, routerId, slug: p.slug, name: p.slug, urlEncrypted: encryptText(p.url), urlDisplay: p.url.split('?')[0],
      headersEncrypted: p.headers ? encryptText(JSON.stringify(p.headers)) : null,
      priority: p.priority ?? 100, weight: p.weight ?? 100, maxConcurrent: p.maxConcurrent ?? null, enabled: p.enabled ?? true,
      capabilities: { providerKind: 'generic', advertisedMaxConcurrent: null },
    },
  });
  await notifyRouter(routerId);
  return provider;
}

export async function updateRouterRow(routerId: string, data: Record<string, unknown>) {
  const { db } = await import('../../lib/db');
  await db.router.update({ where: { id: routerId }, data });
  await notifyRouter(routerId);
}

export async function notifyRouter(routerId: string) {
  const { db } = await import('../../lib/db');
  await db.$executeRaw`SELECT pg_notify('router_changed', ${routerId})`;
}

export interface FakeUpstream {
  url: string;
  close(): Promise<void>;
}

/** A port where nothing listens: connection refused. */
export async function refusingUpstream(): Promise<FakeUpstream> {
  return { url: `ws://127.0.0.1:${await freePort()}/devtools/browser/x`, close: async () => {} };
}

/** Accepts TCP and never answers the handshake. */
export async function hangingUpstream(): Promise<FakeUpstream> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => { sockets.add(s); s.on('error', () => {}); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return { url: `ws://127.0.0.1:${port}/devtools/browser/x`, close: async () => { sockets.forEach((s) => s.destroy()); await new Promise((r) => server.close(r)); } };
}

/** Answers the upgrade with 403. */
export async function rejectingUpstream(): Promise<FakeUpstream> {
  const server = http.createServer((_req, res) => res.writeHead(403).end('no'));
  server.on('upgrade', (_req, socket) => socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return { url: `ws://127.0.0.1:${port}/devtools/browser/x`, close: async () => { server.closeAllConnections(); await new Promise((r) => server.close(r)); } };
}
