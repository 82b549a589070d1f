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

export interface CountingRelay extends FakeUpstream {
  /** TCP connections accepted so far. */
  readonly accepted: number;
  /** Connections open right now. */
  readonly open: number;
  /** Resolves when the number of open connections is `n`. */
  openIs(n: number, timeoutMs?: number): Promise<void>;
  /** Cuts every open connection (a provider restart, seen from the proxy). */
  cut(): void;
}

/** A TCP relay in front of a browser that counts the connections made through it. */
export async function countingRelay(targetWsUrl: string): Promise<CountingRelay> {
  const target = new URL(targetWsUrl);
  const sockets = new Set<net.Socket>();
  const watchers = new Set<() => void>();
  let accepted = 0;
  const changed = () => watchers.forEach((w) => w());
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(upstream); if (sockets.delete(client)) changed(); };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    changed();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  const openCount = () => Math.floor(sockets.size / 2);
  return {
    url: `ws://127.0.0.1:${port}${target.pathname}`,
    get accepted() { return accepted; },
    get open() { return openCount(); },
    openIs(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => { if (openCount() === n) { watchers.delete(check); clearTimeout(timer); resolve(); } };
        const timer = setTimeout(() => { watchers.delete(check); reject(new Error(`relay: ${openCount()} open, waited for ${n}`)); }, timeoutMs);
        watchers.add(check);
        check();
      });
    },
    cut() { sockets.forEach((s) => s.destroy()); },
    close: async () => { sockets.forEach((s) => s.destroy()); await new Promise((r) => server.close(r)); },
  };
}
