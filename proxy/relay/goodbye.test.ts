// When the service ends a session (relay.close), both lanes tell the client why over real
// sockets: Inspector.detached with the reason, then the close frame with the code and the same
// reason, each whole and in that order; the event never lands inside a fragmented message and
// nothing of ours lands inside a frame; a reason past 123 bytes is cut the same in both.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { closeFrame, MAX_CLOSE_REASON_BYTES } from '../websocket/frames';
import { describe, framesArrive, laneRig, type LaneName } from './testing';

const lanes: LaneName[] = ['fast', 'pipeline'];
const OUTCOME = { state: 'closed', reason: 'idle timeout' } as const;
const detached = (reason: string) => ({ text: JSON.stringify({ method: 'Inspector.detached', params: { reason } }) });

/** An unmasked data frame as a provider sends it. */
function dataFrame(opcode: number, text: string, fin = true): Buffer {
  const payload = Buffer.from(text);
  assert.ok(payload.length < 65_536);
  const length = payload.length < 126 ? Buffer.from([payload.length]) : Buffer.from([126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([Buffer.from([(fin ? 0x80 : 0) | opcode]), length, payload]);
}

/** Target.attachedToTarget as Chromium sends it (flatten mode), inside `parent` when given. */
function attachedEvent(sessionId: string, parent?: string): string {
  const targetInfo = {
    targetId: sessionId.toUpperCase().padEnd(32, '0'),
    type: 'page',
    title: 'A page',
    url: `http://127.0.0.1:9/${'p'.repeat(200)}`,
    attached: true,
    canAccessOpener: false,
    browserContextId: 'C'.repeat(32),
  };
  return JSON.stringify({
    method: 'Target.attachedToTarget',
    params: { sessionId, targetInfo, waitingForDebugger: false },
    ...(parent ? { sessionId: parent } : {}),
  });
}

for (const lane of lanes) {
  test(`${lane} lane: close() sends Inspector.detached with the reason, then the close frame with the code and the same reason, then ends`, async () => {
    const rig = await laneRig(lane);
    try {
      rig.provider.write(dataFrame(0x1, '{"method":"Target.targetCreated"}'));
      await framesArrive(rig.client, 1);
      const reason = 'idle timeout: no traffic for 0.5 s';
      rig.relay.close(4008, reason, OUTCOME);
      await rig.client.gone;
      assert.deepEqual(rig.client.frames.map(describe), [{ text: '{"method":"Target.targetCreated"}' }, detached(reason), { code: 4008, reason }]);
      assert.deepEqual(rig.client.rest(), Buffer.alloc(0));
      assert.deepEqual(await rig.ended, OUTCOME);
    } finally {
      rig.dispose();
    }
  });

  test(`${lane} lane: every CDP session the client still holds gets Inspector.detached too, before the browser's; detached ones do not`, async () => {
    const rig = await laneRig(lane);
    try {
      const events = [
        attachedEvent('page-1'),
        attachedEvent('worker-1', 'page-1'), // nested (auto-attach): the new session is in params
        attachedEvent('page-2'),
        JSON.stringify({ method: 'Target.detachedFromTarget', params: { sessionId: 'page-2', targetId: 'X' } }),
      ];
      rig.provider.write(Buffer.concat(events.map((text) => dataFrame(0x1, text))));
      await framesArrive(rig.client, events.length);
      const reason = 'idle timeout: no traffic for 0.5 s';
      rig.relay.close(4008, reason, OUTCOME);
      await rig.client.gone;
      const inSession = (sessionId: string) => ({ text: JSON.stringify({ method: 'Inspector.detached', params: { reason }, sessionId }) });
      assert.deepEqual(rig.client.frames.slice(events.length).map(describe), [
        inSession('page-1'),
        inSession('worker-1'),
        detached(reason),
        { code: 4008, reason },
      ]);
    } finally {
      rig.dispose();
    }
  });

  test(`${lane} lane: inside a fragmented message the event is left out; the close frame still goes in between two fragments`, async () => {
    const rig = await laneRig(lane);
    try {
      rig.provider.write(dataFrame(0x1, '{"id":1,"result":', false));
      await framesArrive(rig.client, 1);
      rig.relay.close(4009, 'session lifetime reached', OUTCOME);
      await rig.client.gone;
      assert.deepEqual(
        rig.client.frames.map((f) => [f.opcode, f.fin]),
        [
          [0x1, false],
          [0x8, true],
        ],
      );
      assert.deepEqual(describe(rig.client.frames[1]!), { code: 4009, reason: 'session lifetime reached' });
    } finally {
      rig.dispose();
    }
  });

  test(`${lane} lane: a reason past 123 bytes is cut at a character boundary, the same in the event and the close frame`, async () => {
    const rig = await laneRig(lane);
    try {
      const reason = 'über '.repeat(40);
      rig.relay.close(4001, reason, OUTCOME);
      await rig.client.gone;
      const [event, close] = rig.client.frames.map(describe) as [{ text: string }, { code: number; reason: string }];
      assert.equal(rig.client.frames.length, 2);
      const cut = close.reason;
      assert.ok(Buffer.byteLength(cut) <= MAX_CLOSE_REASON_BYTES && Buffer.byteLength(cut) > MAX_CLOSE_REASON_BYTES - 3, `${Buffer.byteLength(cut)} bytes`);
      assert.ok(reason.startsWith(cut));
      assert.deepEqual(event, detached(cut));
    } finally {
      rig.dispose();
    }
  });
}

test('fast lane: in the middle of a frame nothing of ours goes in; the client is just ended', async () => {
  const rig = await laneRig('fast');
  try {
    const frame = dataFrame(0x2, 'x'.repeat(100));
    rig.provider.write(frame.subarray(0, 40));
    await rig.client.received(() => rig.client.rest().length >= 40, 'the first 40 bytes');
    rig.relay.close(4008, 'idle timeout', OUTCOME);
    await rig.client.gone;
    assert.deepEqual(rig.client.frames, []);
    assert.deepEqual(rig.client.rest(), frame.subarray(0, 40), 'the cut frame, and no byte of ours after it');
  } finally {
    rig.dispose();
  }
});

test('pipeline lane: a frame only partly received from the provider never reaches the client, so the goodbye goes in', async () => {
  const rig = await laneRig('pipeline');
  try {
    // One write: once the whole message is through, the lane holds the cut frame behind it.
    rig.provider.write(Buffer.concat([dataFrame(0x1, '{}'), dataFrame(0x2, 'x'.repeat(100)).subarray(0, 40)]));
    await framesArrive(rig.client, 1);
    rig.relay.close(4008, 'idle timeout', OUTCOME);
    await rig.client.gone;
    assert.deepEqual(rig.client.frames.map(describe), [{ text: '{}' }, detached('idle timeout'), { code: 4008, reason: 'idle timeout' }]);
    assert.deepEqual(rig.client.rest(), Buffer.alloc(0));
  } finally {
    rig.dispose();
  }
});

test("after the provider's close frame the client gets nothing more of ours (one close frame per direction)", async () => {
  for (const lane of lanes) {
    const rig = await laneRig(lane);
    try {
      rig.provider.write(closeFrame(1000, 'bye'));
      await framesArrive(rig.client, 1);
      rig.relay.close(4008, 'idle timeout', OUTCOME);
      await rig.client.gone;
      assert.deepEqual(rig.client.frames.map(describe), [{ code: 1000, reason: 'bye' }], lane);
    } finally {
      rig.dispose();
    }
  }
});
