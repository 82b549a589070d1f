// A recorded session (connect with session_record=true, docs/recordings.md): the recording's row,
// the capture plugin with its caps (the byte cap and the wallet's limit), and at the end the
// summary, the row's figures and the encode job. The session's recorded time is billed at its
// end (lib/sessions/session-writer.ts) from `recordedMs`.
import { randomUUID } from 'node:crypto';
import { blobs, type BlobStore } from '../../../lib/blobs';
import { recordingBudgetMs, sessionCharge } from '../../../lib/billing/charges';
import type { WalletState } from '../../../lib/billing/gates';
import { RECORDINGS } from '../../../lib/captures/kinds';
import { log } from '../../../lib/log';
import { requestEncode } from '../../../lib/recordings/request-encode';
import { createRecording, finishRecording } from '../../../lib/recordings/store';
import { CaptureLifecycle } from '../capture/lifecycle';
import { FrameStore } from './frame-store';
import { liveRecordings } from './live';
import { RecordingPlugin } from './plugin';

/** A recording stops at 1 GB (docs/recordings.md, Caps); the session goes on. */
export const RECORDING_MAX_BYTES = 1024 * 1024 * 1024;

export interface RecordingOptions {
  /** The byte cap (default 1 GB; tests use a small one). */
  maxBytes?: number;
  store?: BlobStore;
}

export interface RecordingStartInput {
  sessionId: string;
  workspaceId: string;
  routerId: string;
  providerId: string;
  profileId: string | null;
  /** The wallet as read with the router key: the recording stops before its cost would use it up. */
  wallet: WalletState;
  /** Resolves once the session's row is written (the recording's row refers to it). */
  sessionInserted: Promise<unknown>;
  /** When the session started: the video covers it from there (the session row's startedAt). */
  sessionStartedAt?: Date;
}

export const newRecordingId = () => `rec_${randomUUID().replaceAll('-', '')}`;

export class RecordingSession {
  readonly id = newRecordingId();
  readonly plugin: RecordingPlugin;
  private readonly frames: FrameStore;
  private readonly lifecycle: CaptureLifecycle;
  private budgetTimer: NodeJS.Timeout | null = null;
  private readonly budgetMs: number | null;
  private readonly startedAt = new Date();

  constructor(
    private readonly input: RecordingStartInput,
    options: RecordingOptions = {},
  ) {
    const store = options.store ?? blobs();
    this.frames = new FrameStore(store, this.id, options.maxBytes ?? RECORDING_MAX_BYTES);
    this.plugin = new RecordingPlugin(this.frames, Date.now, input.sessionStartedAt?.getTime());
    const row = {
      id: this.id,
      workspaceId: input.workspaceId,
      sessionLogId: input.sessionId,
      routerId: input.routerId,
      providerId: input.providerId,
      profileId: input.profileId,
      startedAt: this.startedAt,
    };
    this.lifecycle = new CaptureLifecycle({
      kind: RECORDINGS,
      id: this.id,
      sessionId: input.sessionId,
      store,
      sessionInserted: input.sessionInserted,
      createRow: () => createRecording(row),
    });
    const budget = walletBudgetMs(input.wallet);
    this.budgetMs = budget;
    if (budget !== null) {
      this.budgetTimer = setTimeout(() => {
        log.info({ sessionId: input.sessionId, budgetMs: budget }, 'recording stopped: its cost would use up the wallet');
        this.plugin.stop('wallet-drained');
      }, budget);
      this.budgetTimer.unref();
    }
    liveRecordings.add(input.sessionId, this.plugin);
  }

  /** The billed time: from the start of capture to its stop, never past what the wallet pays for (a timer fires a little late). */
  get recordedMs(): number {
    return Math.min(this.plugin.recordedMs, this.budgetMs ?? Infinity);
  }

  /** The session ended: stop, write the summary, finish the row and queue the video. */
  end(endedAt: Date = new Date()): Promise<void> {
    if (this.budgetTimer) clearTimeout(this.budgetTimer);
    this.plugin.stop(null);
    liveRecordings.remove(this.input.sessionId, this.plugin);
    const durationMs = this.recordedMs;
    // The video lasts as long as the session (its time zero is the session's start, its end the
    // session's end, which can come a little after the client left); a recording stopped by a cap
    // ends where it stopped.
    const startedAtMs = this.plugin.startedAtMs || this.startedAt.getTime();
    const sessionDurationMs = this.plugin.truncated === null ? Math.max(durationMs, endedAt.getTime() - startedAtMs) : durationMs;
    return this.lifecycle.end({
      close: () =>
        this.frames.close({
          recordingId: this.id,
          sessionId: this.input.sessionId,
          startedAt: new Date(startedAtMs).toISOString(),
          endedAt: endedAt.toISOString(),
          durationMs,
          sessionDurationMs,
          duplicatesSkipped: this.plugin.duplicatesSkipped,
          capStopped: this.plugin.truncated !== null,
          truncated: this.plugin.truncated,
        }),
      finishRow: finishRecording,
      afterFinish: () => requestEncode(this.id),
    });
  }

  /** Settles when the recording's files and row are final and its video is queued. */
  get done(): Promise<void> {
    return this.lifecycle.done;
  }
}

/** How long the wallet lets the recording run (null: no limit, for enterprise workspaces). */
export function walletBudgetMs(wallet: WalletState): number | null {
  if (wallet.enterprise) return null;
  // The session's own charge (above the month's free sessions) comes out of the same balance.
  const own = sessionCharge(wallet.monthSessions + 1);
  return recordingBudgetMs(wallet.balanceMillicents - own);
}
