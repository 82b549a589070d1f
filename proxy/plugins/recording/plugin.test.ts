// The recording's clock: its time zero is the session's start, not the moment the plugin could
// attach (later, on a loaded machine or behind other plugins), so that the video is as long as the
// session; without a session start it is the plugin's own.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsBlobStore } from '../../../lib/blobs/fs-store';
import type { PluginContext } from '../../relay/plugin';
import { FrameStore } from './frame-store';
import { RecordingPlugin } from './plugin';
import { RecordingSession } from './index';
import { completeKey, type CompleteSummary } from '../../../lib/recordings/format';
import type { WalletState } from '../../../lib/billing/gates';

/** A browser that lets the plugin attach (its commands answered as Chromium answers them). */
const ctx = {
  sessionId: 'ses_test',
  send: async (method: string) => (method === 'Target.attachToBrowserTarget' ? { sessionId: 'B' } : {}),
  forward: () => {},
} as unknown as PluginContext;

const dir = mkdtempSync(path.join(os.tmpdir(), 'rec-clock-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function plugin(origin?: number) {
  const store = new FrameStore(new FsBlobStore(dir), 'rec_clock', 1_000_000);
  let now = 10_000;
  const recording = new RecordingPlugin(store, () => now, origin);
  return { recording, at: (t: number) => (now = t) };
}

test("the video's time zero is the session's start: the moments before the plugin attached are recorded time", async () => {
  const { recording, at } = plugin(9_200);
  await recording.onStart(ctx);
  assert.equal(recording.startedAtMs, 9_200);
  at(14_000);
  recording.onEnd();
  assert.equal(recording.recordedMs, 4_800);
});

test("without the session's start, the plugin's own start; a session start in the future is not believed", async () => {
  const own = plugin();
  await own.recording.onStart(ctx);
  assert.equal(own.recording.startedAtMs, 10_000);
  own.at(14_000);
  own.recording.onEnd();
  assert.equal(own.recording.recordedMs, 4_000);

  const ahead = plugin(12_000);
  await ahead.recording.onStart(ctx);
  assert.equal(ahead.recording.startedAtMs, 10_000);
});

test('the video ends with the session: a session that ends after its client left still gets a video as long as itself', async () => {
  const store = new FsBlobStore(dir);
  const startedAt = new Date(Date.now() - 5_000);
  // No session row in this test: the recording's row is not written, its summary is.
  const session = new RecordingSession(
    {
      sessionId: 'ses_end',
      workspaceId: 'w',
      routerId: 'r',
      providerId: 'p',
      profileId: null,
      wallet: { suspended: false, enterprise: true, balanceMillicents: 0n, monthSessions: 0 } satisfies WalletState,
      sessionInserted: Promise.reject(new Error('no row in this test')),
      sessionStartedAt: startedAt,
    },
    { store },
  );
  await session.plugin.onStart(ctx);
  session.plugin.onClientGone();
  const clientLeftMs = session.recordedMs;
  // The relay's end comes later than the client's departure (a loaded machine: 100 ms and more).
  const endedAt = new Date(startedAt.getTime() + clientLeftMs + 400);
  await session.end(endedAt);
  const summary = JSON.parse((await store.get(completeKey(session.id)))!.toString('utf8')) as CompleteSummary;
  assert.equal(summary.sessionDurationMs, endedAt.getTime() - startedAt.getTime(), 'the video spans the session, start to end');
  assert.equal(summary.durationMs, clientLeftMs, 'the recorded (billed) time is what was captured');
});
