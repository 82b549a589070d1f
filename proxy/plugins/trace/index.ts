// A traced session (connect with observability=true, docs/traces.md): the trace's row, the capture
// plugin with its limit (2,000,000 events, or fewer when the wallet pays for fewer), and at the end
// the summary and the row's figures. The events are billed with the session's end
// (lib/sessions/session-writer.ts) from `eventCount`. Where the provider's browser keeps its
// downloads itself, the completed ones the trace saw become the session's downloads (listed, no file).
import { randomUUID } from 'node:crypto';
import { blobs, type BlobStore } from '../../../lib/blobs';
import { sessionCharge, traceBudgetEvents } from '../../../lib/billing/charges';
import { settings } from '../../../lib/config/settings';
import type { WalletState } from '../../../lib/billing/gates';
import { log } from '../../../lib/log';
import { saveProviderDownloads } from '../../../lib/downloads/store';
import { TRACES } from '../../../lib/captures/kinds';
import { TRACE_MAX_EVENTS } from '../../../lib/traces/format';
import { createTrace, finishTrace, showProgress } from '../../../lib/traces/store';
import { CaptureLifecycle } from '../capture/lifecycle';
import { EventStore } from './event-store';
import { TracePlugin } from './plugin';

export interface TraceOptions {
  /** The event cap (default 2,000,000; tests use a small one). */
  maxEvents?: number;
  store?: BlobStore;
  /** How often a running trace's row gets its figures so far (default TRACE_PROGRESS_MS, 5 s). */
  progressMs?: number;
}

export interface TraceStartInput {
  sessionId: string;
  workspaceId: string;
  routerId: string;
  providerId: string;
  /** The wallet as read with the router key: capture stops before its cost would use it up. */
  wallet: WalletState;
  /** Resolves once the session's row is written (the trace's row refers to it). */
  sessionInserted: Promise<unknown>;
  /** The router's names to redact besides the defaults (its `traceRedactNames`, as the session started). */
  redactNames?: ReadonlySet<string>;
  /** The provider keeps its browser's downloads (not the local pool, whose files the proxy collects). */
  downloadsAtProvider?: boolean;
}

export const newTraceId = () => `trc_${randomUUID().replaceAll('-', '')}`;

export class TraceSession {
  readonly id = newTraceId();
  readonly plugin: TracePlugin;
  private readonly events: EventStore;
  private readonly lifecycle: CaptureLifecycle;
  private readonly startedAt = new Date();
  private progressTimer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly input: TraceStartInput,
    options: TraceOptions = {},
  ) {
    const store = options.store ?? blobs();
    const cap = options.maxEvents ?? TRACE_MAX_EVENTS;
    const budget = walletBudgetEvents(input.wallet);
    const limit = Math.min(cap, budget ?? Infinity);
    this.events = new EventStore(store, this.id, limit);
    this.plugin = new TracePlugin(this.events, budget !== null && budget < cap ? 'wallet-drained' : 'event-cap', Date.now, input.redactNames);
    const row = {
      id: this.id,
      workspaceId: input.workspaceId,
      sessionLogId: input.sessionId,
      routerId: input.routerId,
      providerId: input.providerId,
      startedAt: this.startedAt,
    };
    this.lifecycle = new CaptureLifecycle({
      kind: TRACES,
      id: this.id,
      sessionId: input.sessionId,
      store,
      sessionInserted: input.sessionInserted,
      createRow: () => createTrace(row),
    });
    void this.lifecycle.created.then((created) => {
      if (!created || this.ended) return;
      let shown = 0;
      this.progressTimer = setInterval(() => {
        if (this.events.eventCount + this.events.droppedEvents === shown) return;
        shown = this.events.eventCount + this.events.droppedEvents;
        void showProgress(this.id, this.events).catch((error: Error) =>
          log.warn({ traceId: this.id, err: error.message }, "could not show the trace's progress"),
        );
      }, options.progressMs ?? settings().traceProgressMs);
      this.progressTimer.unref();
    });
  }

  /** The events billed: those the trace holds. */
  get eventCount(): number {
    return this.events.eventCount;
  }

  /** The session ended: stop, write the summary and finish the row. */
  end(endedAt: Date = new Date()): Promise<void> {
    this.ended = true;
    if (this.progressTimer) clearInterval(this.progressTimer);
    this.plugin.stop(null);
    return this.lifecycle.end({
      close: () =>
        this.events.close({
          traceId: this.id,
          sessionId: this.input.sessionId,
          startedAt: this.startedAt.toISOString(),
          endedAt: endedAt.toISOString(),
          durationMs: Math.max(0, endedAt.getTime() - this.startedAt.getTime()),
          truncated: this.plugin.truncated,
        }),
      finishRow: finishTrace,
      afterFinish: async () => {
        const downloads = this.plugin.downloads.completed;
        if (this.input.downloadsAtProvider && downloads.length > 0)
          await saveProviderDownloads({ workspaceId: this.input.workspaceId, sessionId: this.input.sessionId, downloads });
      },
    });
  }

  /** Settles when the trace's files and row are final. */
  get done(): Promise<void> {
    return this.lifecycle.done;
  }
}

/** How many events the wallet pays for (null: no limit, for enterprise workspaces). */
export function walletBudgetEvents(wallet: WalletState): number | null {
  if (wallet.enterprise) return null;
  // The session's own charge (above the month's free sessions) comes out of the same balance.
  return traceBudgetEvents(wallet.balanceMillicents - sessionCharge(wallet.monthSessions + 1));
}
