// What a client reads when the proxy ends its session, from the registry through a real lane over
// loopback sockets, with a fake clock for the idle timeout and the 4-hour lifetime: every text
// names its cause and what controls it, fits a close frame whole, and arrives twice, in
// Inspector.detached and then in the close frame with its code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { describe, laneRig, type LaneName, type LaneRig } from '../relay/testing';
import { CONTROL_PLANE_CLOSE, type RelayOutcome } from '../relay/types';
import { MAX_CLOSE_REASON_BYTES } from '../websocket/frames';
import { CLOSE_TEXTS, idleTimeoutText, SESSION_LIFETIME_MS } from './close-reasons';
import { SessionRegistry } from './registry';
import { KEY_REVOKED, KEY_ROTATED, WORKSPACE_DELETION, WORKSPACE_SUSPENDED, CHAT_LINK_REVOKED } from './revocations';

const lanes: LaneName[] = ['fast', 'pipeline'];
const HOUR_MS = 3_600_000;

test('every text fits a close frame whole (123 bytes of UTF-8), the idle one at every allowed idle timeout', () => {
  const idle = [500, 10_000, 10_050, 299_999, 300_000, 840_000].map(idleTimeoutText);
  for (const text of [...Object.values(CLOSE_TEXTS), ...idle])
    assert.ok(Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES, `${Buffer.byteLength(text)} bytes: ${text}`);
  assert.equal(idleTimeoutText(300_000), "idle timeout: no traffic for 300 s; set the router's sessionIdleTimeoutMs (Settings > Routing > Idle timeout)");
  assert.match(idleTimeoutText(500), /^idle timeout: no traffic for 0\.5 s;/);
  assert.match(CLOSE_TEXTS.lifetime, /^session lifetime reached: a session lasts at most 4 hours \(a fixed limit, not a setting\)/);
  // Each still starts with the short reason it replaced (what clients may have matched on).
  for (const r of [KEY_REVOKED, KEY_ROTATED, WORKSPACE_DELETION, WORKSPACE_SUSPENDED, CHAT_LINK_REVOKED])
    assert.ok(r.message.startsWith(`${r.reason}`), r.message);
  assert.ok(CLOSE_TEXTS.lifetime.startsWith('session lifetime reached'));
  assert.ok(CLOSE_TEXTS.controlPlane.startsWith('closed by the workspace'));
  assert.ok(CLOSE_TEXTS.shutdown.startsWith('proxy shutting down'));
});

test('docs/connect.md lists every text as the client reads it', () => {
  const doc = readFileSync(new URL('../../docs/connect.md', import.meta.url), 'utf8');
  for (const text of [idleTimeoutText(300_000), ...Object.values(CLOSE_TEXTS)]) assert.ok(doc.includes(`\`${text}\``), `docs/connect.md lacks: ${text}`);
});

/**
 * A registry on a fake clock (standing at the session's start plus `ahead`), sweeping every few ms,
 * holding one session on a real lane. The lane stamps its traffic with the real time, a few ms
 * past the start at most.
 */
async function registered(lane: LaneName, idleTimeoutMs: number) {
  const startedAt = Date.now();
  // The registry reads the clock once a sweep: `swept(n)` resolves after n more reads.
  const waiting: { at: number; resolve: () => void }[] = [];
  const clock = {
    ahead: 0,
    reads: 0,
    swept: (n: number) => new Promise<void>((resolve) => waiting.push({ at: clock.reads + n, resolve })),
  };
  const now = () => {
    clock.reads++;
    for (const w of waiting.filter((w) => clock.reads >= w.at)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
    return startedAt + clock.ahead;
  };
  const sessions = new SessionRegistry(now, 5);
  const rig = await laneRig(lane);
  sessions.add({ id: 's1', routerId: 'r1', keyId: 'k1', workspaceId: 'w1', startedAt, idleTimeoutMs, relay: rig.relay, ended: rig.ended.then(() => {}) });
  return { sessions, rig, clock };
}

/** What the client received: the event's reason, then the close frame's code and reason. */
async function goodbyeOf(rig: LaneRig): Promise<{ event: unknown; close: unknown; outcome: RelayOutcome }> {
  await rig.client.gone;
  assert.equal(rig.client.frames.length, 2, 'the event and the close frame, nothing else');
  const [event, close] = rig.client.frames.map(describe) as [{ text: string }, unknown];
  return { event: JSON.parse(event.text), close, outcome: await rig.ended };
}

const detached = (reason: string) => ({ method: 'Inspector.detached', params: { reason } });

for (const lane of lanes) {
  test(`${lane} lane: the idle timeout closes with 4008 and says for how long and which router setting`, async () => {
    const { rig, clock } = await registered(lane, 300_000);
    try {
      clock.ahead = 300_000 + 60_000;
      const text = idleTimeoutText(300_000);
      assert.deepEqual(await goodbyeOf(rig), {
        event: detached(text),
        close: { code: 4008, reason: text },
        outcome: { state: 'closed', reason: 'idle timeout' },
      });
    } finally {
      rig.dispose();
    }
  });

  test(`${lane} lane: the 4-hour lifetime closes with 4009 and says it is a fixed limit`, async () => {
    const { sessions, rig, clock } = await registered(lane, 10 * HOUR_MS);
    try {
      clock.ahead = SESSION_LIFETIME_MS - 1;
      // Not yet: still open after a whole sweep at a millisecond short of the lifetime.
      await clock.swept(2);
      assert.equal(sessions.has('s1'), true);
      assert.deepEqual(rig.client.frames, []);
      clock.ahead = SESSION_LIFETIME_MS;
      assert.deepEqual(await goodbyeOf(rig), {
        event: detached(CLOSE_TEXTS.lifetime),
        close: { code: 4009, reason: CLOSE_TEXTS.lifetime },
        outcome: { state: 'closed', reason: 'lifetime of 4 hours reached' },
      });
    } finally {
      rig.dispose();
    }
  });
}

test('revocations tell the client what to do; the row keeps the short reason', async () => {
  for (const [revocation, scope] of [
    [KEY_REVOKED, { keyIds: ['k1'] }],
    [KEY_ROTATED, { keyIds: ['k1'] }],
    [WORKSPACE_DELETION, { workspaceIds: ['w1'] }],
    [WORKSPACE_SUSPENDED, { workspaceIds: ['w1'] }],
    [CHAT_LINK_REVOKED, { keyIds: ['k1'] }],
  ] as const) {
    for (const lane of lanes) {
      const { sessions, rig } = await registered(lane, HOUR_MS);
      try {
        assert.equal(sessions.revoke(scope, revocation), 1);
        const got = await goodbyeOf(rig);
        assert.deepEqual(
          got,
          {
            event: detached(revocation.message),
            close: { code: revocation.code, reason: revocation.message },
            outcome: { state: 'closed', reason: revocation.reason },
          },
          `${lane}: ${revocation.reason}`,
        );
      } finally {
        rig.dispose();
      }
    }
  }
});

test('a close from the control plane and a proxy shutdown say so, and how to go on', async () => {
  for (const lane of lanes) {
    const closed = await registered(lane, HOUR_MS);
    try {
      assert.equal(closed.sessions.close('s1', 4000, CLOSE_TEXTS.controlPlane, { state: 'closed', reason: CONTROL_PLANE_CLOSE }), true);
      const got = await goodbyeOf(closed.rig);
      assert.deepEqual(
        got,
        {
          event: detached(CLOSE_TEXTS.controlPlane),
          close: { code: 4000, reason: CLOSE_TEXTS.controlPlane },
          outcome: { state: 'closed', reason: CONTROL_PLANE_CLOSE },
        },
        lane,
      );
    } finally {
      closed.rig.dispose();
    }
    const drained = await registered(lane, HOUR_MS);
    try {
      await drained.sessions.drain(0);
      const got = await goodbyeOf(drained.rig);
      assert.deepEqual(got.event, detached(CLOSE_TEXTS.shutdown), lane);
      assert.deepEqual(got.close, { code: 1001, reason: CLOSE_TEXTS.shutdown }, lane);
    } finally {
      drained.rig.dispose();
    }
  }
});
