// A failed health check says why, worded as a failed dial is, so the refusals that follow it can
// name the cause (an egress policy that refuses the address, proxy/engine/provider-health.ts).
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import type { RuntimeProvider } from '../config/router-store';
import { checkProvider } from './health-checker';

const addressProvider = (url: string) => ({ id: 'p', slug: 'p', url, headers: {}, providerKind: 'generic' }) as unknown as RuntimeProvider;

test('under PRIVATE_NETWORK=deny (the default) a loopback provider is unhealthy, and the reason names the policy', async () => {
  assert.equal(process.env.PRIVATE_NETWORK ?? 'deny', 'deny');
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as { port: number };
    const report = await checkProvider(addressProvider(`ws://127.0.0.1:${port}/devtools/browser/x`));
    assert.equal(report.healthy, false, 'listening, but the policy refuses the address');
    assert.match(report.reason ?? '', /^health check: refused by the egress policy: .*PRIVATE_NETWORK/);
    const named = await checkProvider(addressProvider(`ws://localhost:${port}`));
    assert.match(named.reason ?? '', /localhost resolves to 127\.0\.0\.1.*PRIVATE_NETWORK/);
  } finally {
    server.close();
  }
});
