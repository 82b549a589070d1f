// The MCP session registry with stand-ins for the SDK objects and the browsers: idle close (a fake
// clock), the per-credential count, and revocation by credential or workspace.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RouterKeyIdentity } from '../auth/router-key';
import { CHAT_LINK_REVOKED, WORKSPACE_SUSPENDED } from '../sessions/revocations';
import { MCP_IDLE_MS, McpRegistry, type McpSession } from './registry';

function fakeSession(id: string, credentialId: string, workspaceId = 'w1', browsers = 0) {
  const identity: RouterKeyIdentity = {
    keyId: credentialId,
    routerId: 'r1',
    workspaceId,
    suspended: false,
    enterprise: false,
    balanceMillicents: 0n,
    monthSessions: 0,
  };
  const closed: string[] = [];
  let serverClosed = false;
  const session = {
    id,
    credentialId,
    credential: 'chat_link',
    workspaceId,
    identity,
    lastRequestAt: 0,
    inFlight: 0,
    transport: {},
    server: {
      close: async () => {
        serverClosed = true;
      },
    },
    browsers: {
      size: browsers,
      closeAll: async (reason: string) => {
        closed.push(reason);
      },
      list: () => [],
    },
  } as unknown as McpSession;
  return { session, closed, serverClosed: () => serverClosed, setBrowsers: (n: number) => ((session.browsers as { size: number }).size = n) };
}

const settle = () => new Promise((r) => setImmediate(r));

test('idle for 30 minutes with no browser and no request in flight: closed', async () => {
  let now = 0;
  const registry = new McpRegistry({ now: () => now });
  const idle = fakeSession('a', 'k1');
  const busy = fakeSession('b', 'k1', 'w1', 1);
  const working = fakeSession('c', 'k1');
  for (const s of [idle, busy, working]) registry.add(s.session);
  const done = registry.begin(working.session, true);
  now = MCP_IDLE_MS - 1;
  registry.sweep();
  await settle();
  assert.equal(registry.size, 3);
  now = MCP_IDLE_MS;
  registry.sweep();
  await settle();
  assert.deepEqual(
    [registry.get('a'), registry.get('b')?.id, registry.get('c')?.id],
    [undefined, 'b', 'c'],
    'a live browser or a request in flight keeps a session',
  );
  assert.deepEqual(idle.closed, ['MCP session idle']);
  assert.ok(idle.serverClosed());
  done();
  busy.setBrowsers(0);
  now += MCP_IDLE_MS;
  registry.sweep();
  await settle();
  assert.equal(registry.size, 0);
  await registry.closeAll('test over');
});

test("counts per credential; revocation closes a credential's or a workspace's sessions and their browsers", async () => {
  const registry = new McpRegistry();
  const a = fakeSession('a', 'link1', 'w1');
  const b = fakeSession('b', 'link1', 'w1');
  const c = fakeSession('c', 'key2', 'w1');
  const d = fakeSession('d', 'key3', 'w2');
  for (const s of [a, b, c, d]) registry.add(s.session);
  assert.equal(registry.countFor('link1'), 2);
  assert.equal(registry.revoke({ keyIds: ['link1'] }, CHAT_LINK_REVOKED), 2);
  await settle();
  assert.deepEqual([a.closed, b.closed, c.closed], [['chat link rotated or deleted'], ['chat link rotated or deleted'], []]);
  assert.equal(registry.countFor('link1'), 0);
  assert.equal(registry.revoke({ workspaceIds: ['w2'] }, WORKSPACE_SUSPENDED), 1);
  await settle();
  assert.deepEqual([...registry.holders()], [{ keyId: 'key2', workspaceId: 'w1', credential: 'chat_link' }]);
  await registry.closeAll('proxy shutting down');
  assert.deepEqual(c.closed, ['proxy shutting down']);
  assert.equal(registry.size, 0);
});
