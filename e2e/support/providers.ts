// Helpers for the providers tests: the exact Provider field list and shape checks, router changes
// with the NOTIFY that running proxies follow, and a relay that counts connections.
import net from 'node:net';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { seedProfile } from './seed';

export const PROVIDER_FIELDS = [
  'adapterKind',
  'capabilities',
  'createdAt',
  'enabled',
  'headers',
  'id',
  'maxConcurrent',
  'name',
  'ownerId',
  'priority',
  'profile',
  'slug',
  'updatedAt',
  'url',
  'weight',
];
export const CAPABILITY_FIELDS = [
  'advertisedMaxConcurrent',
  'browserCookies',
  'errors',
  'fetchInterception',
  'pageScreencast',
  'probeDurationMs',
  'probedAt',
  'providerKind',
  'targetCreate',
  'targetCreateLatencyMs',
  'targetGetTargets',
];
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const uniqueSlug = (tag = 'p') => `${tag}-${randomBytes(4).toString('hex')}`;

export function assertProviderShape(provider: Record<string, unknown>) {
  assert.deepEqual(Object.keys(provider).sort(), PROVIDER_FIELDS);
  assert.deepEqual(Object.keys(provider.capabilities as object).sort(), CAPABILITY_FIELDS);
  assert.equal(provider.headers, null);
  assert.match(provider.createdAt as string, ISO);
  assert.match(provider.updatedAt as string, ISO);
}

/** A probe of a healthy local Chromium: everything supported, nothing failed. */
export function assertFullyCapable(capabilities: Record<string, unknown>) {
  assert.equal(capabilities.providerKind, 'generic');
  for (const step of ['browserCookies', 'targetCreate', 'targetGetTargets', 'fetchInterception', 'pageScreencast']) {
    assert.equal(capabilities[step], 'supported', `${step}: ${JSON.stringify(capabilities.errors)}`);
  }
  assert.ok(Number.isInteger(capabilities.targetCreateLatencyMs) && (capabilities.targetCreateLatencyMs as number) >= 0);
  assert.equal(capabilities.advertisedMaxConcurrent, null);
  assert.match(capabilities.probedAt as string, ISO);
  assert.ok(Number.isInteger(capabilities.probeDurationMs));
  assert.deepEqual(capabilities.errors, []);
}

export async function setConnectionTimeout(routerId: string, connectionTimeoutMs: number) {
  const { db } = await import('../../lib/db');
  await db.router.update({ where: { id: routerId }, data: { connectionTimeoutMs } });
}

/** seedProfile under its older name: a profile named as its slug. */
export const createProfileRow = (workspaceId: string, slug: string) => seedProfile(workspaceId, { slug });

export async function providerRow(routerId: string, slug: string) {
  const { db } = await import('../../lib/db');
  return db.provider.findUnique({ where: { routerId_slug: { routerId, slug } } });
}

/** Pages (tabs) a browser has open, from its own /json/list. */
export async function openPages(httpUrl: string): Promise<number> {
  const targets = (await (await fetch(`${httpUrl}/json/list`)).json()) as { type: string }[];
  return targets.filter((t) => t.type === 'page').length;
}

// Router changes, and the NOTIFY the control plane sends so that running proxies pick them up.
// Provider rows come from seedProvider (seed.ts); addProvider is its older name.
export { seedProvider as addProvider } from './seed';

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

export interface CountingRelay extends FakeUpstream {
  /** TCP connections accepted so far. */
  readonly accepted: number;
  /** Connections open right now. */
  readonly open: number;
  /** The most connections that were open at once. */
  readonly peak: number;
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
  let peak = 0;
  const changed = () => {
    peak = Math.max(peak, Math.floor(sockets.size / 2));
    watchers.forEach((w) => w());
  };
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(upstream);
      if (sockets.delete(client)) changed();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    changed();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  const openCount = () => Math.floor(sockets.size / 2);
  return {
    url: `ws://127.0.0.1:${port}${target.pathname}`,
    get accepted() {
      return accepted;
    },
    get open() {
      return openCount();
    },
    get peak() {
      return peak;
    },
    openIs(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (openCount() === n) {
            watchers.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`relay: ${openCount()} open, waited for ${n}`));
        }, timeoutMs);
        watchers.add(check);
        check();
      });
    },
    cut() {
      sockets.forEach((s) => s.destroy());
    },
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise((r) => server.close(r));
    },
  };
}
