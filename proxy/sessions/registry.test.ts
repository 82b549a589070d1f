// Access revocation in the session registry: which live sessions a revoked key, a rotation or a
// workspace marked for deletion closes, with which close code and row outcome, and sessions that
// register after the revocation (authenticated before it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Relay, RelayOutcome } from '../relay/types';
import { CLOSE_TEXTS } from './close-reasons';
import { SessionRegistry, type LiveSession } from './registry';
import { applyAccessEvent, KEY_REVOKED, KEY_ROTATED, WORKSPACE_DELETION, WORKSPACE_SUSPENDED, type Revocable } from './revocations';

interface Closed {
  code: number;
  reason: string;
  outcome: RelayOutcome;
}

function session(id: string, keyId: string, workspaceId: string): LiveSession & { closes: Closed[] } {
  const closes: Closed[] = [];
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const relay: Relay = {
    stats: { bytesIn: 0, bytesOut: 0, messages: 0, lastActivity: Date.now() },
    close(code, reason, outcome) {
      closes.push({ code, reason, outcome });
      end();
    },
  };
  return { id, routerId: 'r1', keyId, workspaceId, startedAt: Date.now(), idleTimeoutMs: 3_600_000, relay, ended, closes };
}

test('a revoked key closes the sessions opened with it, and only those', async () => {
  const sessions = new SessionRegistry();
  const a = session('s1', 'k1', 'w1');
  const b = session('s2', 'k1', 'w1');
  const c = session('s3', 'k2', 'w1');
  [a, b, c].forEach((s) => sessions.add(s));
  assert.equal(sessions.revoke({ keyIds: ['k1'] }, KEY_REVOKED), 2);
  for (const s of [a, b])
    assert.deepEqual(s.closes, [{ code: 4001, reason: CLOSE_TEXTS.keyRevoked, outcome: { state: 'closed', reason: 'router key revoked' } }]);
  assert.deepEqual(c.closes, []);
  await Promise.all([a.ended, b.ended]);
  await new Promise((r) => setImmediate(r));
  assert.equal(sessions.size, 1);
});

test('NOTIFY payloads: rotation and workspace deletion have their own codes; junk is ignored', async () => {
  const sessions = new SessionRegistry();
  const rotated = session('s1', 'k1', 'w1');
  const marked = session('s2', 'k9', 'w2');
  const other = session('s3', 'k3', 'w3');
  [rotated, marked, other].forEach((s) => sessions.add(s));
  applyAccessEvent(sessions, 'not json');
  applyAccessEvent(sessions, JSON.stringify({ cause: 'key_revoked', keyIds: 'k3' }));
  applyAccessEvent(sessions, JSON.stringify({ cause: 'keys_rotated', keyIds: ['k1', 'k2'] }));
  applyAccessEvent(sessions, JSON.stringify({ cause: 'workspace_deletion', workspaceIds: ['w2'] }));
  assert.equal(rotated.closes[0]?.code, KEY_ROTATED.code);
  assert.equal(rotated.closes[0]?.outcome.reason, 'router key rotated');
  assert.equal(marked.closes[0]?.code, WORKSPACE_DELETION.code);
  assert.equal(marked.closes[0]?.outcome.reason, 'workspace marked for deletion');
  assert.deepEqual(other.closes, []);
});

test('a session registered after its key was revoked (authenticated before) is closed at once', async () => {
  const sessions = new SessionRegistry();
  sessions.revoke({ keyIds: ['k1'] }, KEY_REVOKED);
  sessions.revoke({ workspaceIds: ['w2'] }, WORKSPACE_DELETION);
  const late = session('s1', 'k1', 'w1');
  const lateInMarked = session('s2', 'k2', 'w2');
  const fine = session('s3', 'k3', 'w1');
  [late, lateInMarked, fine].forEach((s) => sessions.add(s));
  assert.equal(late.closes[0]?.code, 4001);
  assert.equal(lateInMarked.closes[0]?.code, 4003);
  assert.deepEqual(fine.closes, []);
});

test('a restored workspace takes sessions again', async () => {
  const sessions = new SessionRegistry();
  applyAccessEvent(sessions, JSON.stringify({ cause: 'workspace_deletion', workspaceIds: ['w1'] }));
  applyAccessEvent(sessions, JSON.stringify({ cause: 'workspaces_restored', workspaceIds: ['w1'] }));
  const s = session('s1', 'k1', 'w1');
  sessions.add(s);
  assert.deepEqual(s.closes, []);
});

test('a workspace suspended by the operator: its sessions close with 4004, late ones too, until the suspension is lifted', async () => {
  const sessions = new SessionRegistry();
  const live = session('s1', 'k1', 'w1');
  const other = session('s2', 'k2', 'w2');
  [live, other].forEach((s) => sessions.add(s));
  applyAccessEvent(sessions, JSON.stringify({ cause: 'workspace_suspended', workspaceIds: ['w1'] }));
  assert.deepEqual(live.closes, [
    { code: WORKSPACE_SUSPENDED.code, reason: CLOSE_TEXTS.workspaceSuspended, outcome: { state: 'closed', reason: 'workspace suspended' } },
  ]);
  assert.deepEqual(other.closes, []);
  const late = session('s3', 'k1', 'w1');
  sessions.add(late);
  assert.equal(late.closes[0]?.code, 4004);
  applyAccessEvent(sessions, JSON.stringify({ cause: 'workspaces_restored', workspaceIds: ['w1'] }));
  const after = session('s4', 'k1', 'w1');
  sessions.add(after);
  assert.deepEqual(after.closes, []);
});

test("a rotated or deleted chat link closes its agents' browsers (4005) and reaches the other holders of access", async () => {
  const sessions = new SessionRegistry();
  const agent = session('s1', 'link1', 'w1');
  const other = session('s2', 'k2', 'w1');
  [agent, other].forEach((s) => sessions.add(s));
  const seen: unknown[] = [];
  const mcp: Revocable = { revoke: (scope, revocation) => (seen.push({ scope, revocation }), 1), holders: () => [] };
  applyAccessEvent(sessions, JSON.stringify({ cause: 'chat_link_revoked', keyIds: ['link1'] }), [mcp]);
  assert.deepEqual(agent.closes, [{ code: 4005, reason: CLOSE_TEXTS.chatLinkRevoked, outcome: { state: 'closed', reason: 'chat link rotated or deleted' } }]);
  assert.deepEqual(other.closes, []);
  assert.deepEqual(seen, [
    { scope: { keyIds: ['link1'] }, revocation: { code: 4005, reason: 'chat link rotated or deleted', message: CLOSE_TEXTS.chatLinkRevoked } },
  ]);
});
