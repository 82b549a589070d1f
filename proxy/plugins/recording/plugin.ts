// The recording plugin (docs/recordings.md, "Capture"): every page of the session is recorded with
// CDP screencast frames, on the client's own connection but out of the client's sight.
//
// The plugin opens a browser-level session of its own (`Target.attachToBrowserTarget`) and turns
// on auto-attach and target discovery there, so it gets every page, later tabs included, without
// touching the client's auto-attach settings. Every message of its sessions is kept from the
// client: the events, the replies (injected ids, pipeline-lane.ts) and the announcement of its
// browser session. Each frame is acknowledged at once (Chromium sends no more until it is),
// compared with its tab's previous frame (identical ones are counted and skipped) and streamed to
// storage (frame-store.ts). No device metrics are set: that would change the page the client sees.
import { createHash } from 'node:crypto';
import { PageSessions } from '../../../lib/cdp/page-sessions';
import { log } from '../../../lib/log';
import type { CdpMessage, PipelinePlugin, PluginContext } from '../../relay/pipeline-lane';
import type { FrameStore } from './frame-store';
import { jpegSize } from './jpeg';
import type { LiveEvent, LiveSource, LiveTab } from './live';

/** JPEG quality and size of the frames: sharp enough to read a page, small enough for hours of video. */
export const SCREENCAST = { format: 'jpeg', quality: 70, maxWidth: 1280, maxHeight: 720, everyNthFrame: 1 } as const;

export type StopReason = 'byte-cap' | 'wallet-drained';

interface Tab extends LiveTab {
  /** Hash of the last frame kept, to skip identical ones. */
  lastHash: Buffer | null;
}

interface TargetInfo {
  targetId: string;
  type: string;
  url: string;
  title: string;
}

const SESSION_KEY = Buffer.from('"sessionId":"');
const TARGET_EVENT = Buffer.from('{"method":"Target.');
/** Small messages are parsed whatever they hold; larger ones are tested on their bytes first. */
const ALWAYS_READ_BYTES = 2_048;

export class RecordingPlugin implements PipelinePlugin, LiveSource {
  readonly name = 'recording';
  /** The CDP sessions the plugin opened (its browser session and one per page). */
  private readonly ours = new Set<string>();
  /** The pages, each on a session of ours (auto-attach), with what the live view shows of it. */
  private readonly pages = new PageSessions<Tab>((target) => ({ targetId: target.targetId, url: target.url ?? '', title: target.title ?? '', lastHash: null }));
  /** Our browser session's announcement may arrive: it is recognised while this is set. */
  private attaching = false;
  /** The last target info the client was shown per target (root discovery events), to hide the echoes of our attaching. */
  private readonly shown = new Map<string, string>();
  private readonly latest = new Map<string, { t: number; at: number; data: string }>();
  private readonly listeners = new Set<(event: LiveEvent) => void>();
  private startedAt = 0;
  private lastT = 0;
  private stoppedAt: number | null = null;
  private ctx: PluginContext | null = null;
  private browserSession: string | null = null;
  duplicatesSkipped = 0;
  truncated: StopReason | null = null;

  /**
   * `origin`: when the session started (Unix ms), the video's time zero, so that the video covers
   * the whole session; the frames of the first moments, before the plugin could attach, are
   * shown by the first frame. Without it, the plugin's own start.
   */
  constructor(
    private readonly store: FrameStore,
    private readonly now: () => number = Date.now,
    private readonly origin?: number,
  ) {}

  get started(): boolean {
    return this.startedAt > 0;
  }

  /** Milliseconds of recording: from the start to the cap, the wallet's limit or the client's departure. */
  get recordedMs(): number {
    if (!this.startedAt) return 0;
    return Math.max(0, (this.stoppedAt ?? this.now()) - this.startedAt);
  }

  get startedAtMs(): number {
    return this.startedAt;
  }

  async onStart(ctx: PluginContext): Promise<void> {
    this.ctx = ctx;
    this.startedAt = Math.min(this.origin ?? Infinity, this.now());
    this.attaching = true;
    try {
      const { sessionId: browserSession } = await ctx.send('Target.attachToBrowserTarget');
      this.attaching = false;
      this.ours.add(browserSession);
      this.browserSession = browserSession;
      await ctx.send('Target.setDiscoverTargets', { discover: true, filter: [{ type: 'page' }] }, browserSession);
      await ctx.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true, filter: [{ type: 'page' }] }, browserSession);
    } catch (error) {
      // The session goes on unrecorded; the recording ends with no frames and its video says so.
      if (this.stoppedAt === null) log.warn({ sessionId: ctx.sessionId, err: (error as Error).message }, 'recording could not start on this provider');
    } finally {
      this.attaching = false;
    }
  }

  wantsProviderMessage(payload: Buffer): boolean {
    if (payload.length <= ALWAYS_READ_BYTES) return true;
    // Chromium writes a session's id last: `…,"sessionId":"<id>"}`.
    const at = payload.indexOf(SESSION_KEY, Math.max(0, payload.length - 64));
    if (at >= 0) {
      const start = at + SESSION_KEY.length;
      const end = payload.indexOf(0x22, start);
      return end > start && this.ours.has(payload.toString('latin1', start, end));
    }
    return payload.compare(TARGET_EVENT, 0, TARGET_EVENT.length, 0, TARGET_EVENT.length) === 0;
  }

  onProviderMessage(message: CdpMessage, ctx: PluginContext): void | 'drop' {
    const session = message.sessionId;
    if (session !== undefined && this.ours.has(session)) {
      this.ownMessage(message, session, ctx);
      return 'drop';
    }
    if (session === undefined && message.method?.startsWith('Target.')) return this.rootTargetEvent(message);
  }

  onClientGone(): void {
    this.stop(null, 'the session ended');
  }

  onEnd(): void {
    this.stop(null, 'the session ended');
  }

  /** Stops capturing (the session goes on); a cap or the wallet's limit marks the recording truncated. */
  stop(
    reason: StopReason | null,
    words = reason === 'byte-cap' ? 'the recording reached its size limit' : 'the recording stopped: its cost would use up the wallet',
  ): void {
    if (this.stoppedAt !== null) return;
    this.stoppedAt = this.now();
    if (reason) {
      this.truncated = reason;
      for (const session of this.pages.pageSessions()) void this.ctx?.send('Page.stopScreencast', {}, session).catch(() => {});
    }
    this.emit({ type: 'end', reason: words });
    this.listeners.clear();
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    if (this.stoppedAt !== null) {
      listener({ type: 'end', reason: this.truncated ? 'the recording stopped' : 'the session ended' });
      return () => {};
    }
    listener({ type: 'tabs', tabs: this.liveTabs() });
    for (const [targetId, frame] of this.latest) listener({ type: 'frame', targetId, ...frame });
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: LiveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a viewer's failure is the viewer's
      }
    }
  }

  private rootTargetEvent(message: CdpMessage): void | 'drop' {
    const params = message.params as { sessionId?: string; targetInfo?: TargetInfo; targetId?: string };
    switch (message.method) {
      case 'Target.attachedToTarget':
        // Our own browser session being announced (it comes just before the reply).
        if (this.attaching && params.targetInfo?.type === 'browser' && params.sessionId) {
          this.ours.add(params.sessionId);
          return 'drop';
        }
        return;
      case 'Target.detachedFromTarget':
        return params.sessionId && this.ours.has(params.sessionId) ? 'drop' : undefined;
      case 'Target.targetCreated':
      case 'Target.targetInfoChanged': {
        if (!params.targetInfo) return;
        // Attaching to a page makes Chromium repeat its info to every discovering client: a
        // repetition of what the client was last shown says nothing new and is ours to hide.
        const info = JSON.stringify(params.targetInfo);
        if (message.method === 'Target.targetInfoChanged' && this.shown.get(params.targetInfo.targetId) === info) return 'drop';
        this.shown.set(params.targetInfo.targetId, info);
        return;
      }
      case 'Target.targetDestroyed':
        if (params.targetId) this.shown.delete(params.targetId);
        return;
    }
  }

  private ownMessage(message: CdpMessage, session: string, ctx: PluginContext): void {
    switch (message.method) {
      case 'Page.screencastFrame':
        return this.frame(message.params as ScreencastFrame, session, ctx);
      case 'Target.attachedToTarget': {
        const { sessionId, targetInfo } = message.params as { sessionId: string; targetInfo: TargetInfo };
        this.ours.add(sessionId);
        // After the stop (a profile's capture tabs at the session's end) pages are only hidden.
        if (targetInfo.type !== 'page' || this.stoppedAt !== null) return;
        this.pages.attached(sessionId, targetInfo);
        this.store.targetEvent({ t: this.elapsed(), target: targetInfo.targetId, event: 'opened', url: targetInfo.url, title: targetInfo.title });
        this.emit({ type: 'tabs', tabs: this.liveTabs() });
        if (this.stoppedAt === null) void ctx.send('Page.startScreencast', SCREENCAST, sessionId).catch(() => {});
        // Page events on our own session: a load is when the page's <title> is known (Chromium
        // announces address changes but not title changes).
        void ctx.send('Page.enable', {}, sessionId).catch(() => {});
        return;
      }
      case 'Page.loadEventFired':
      case 'Page.navigatedWithinDocument': {
        const page = this.pages.ofPageSession(session);
        if (page && this.browserSession) {
          void ctx.send('Target.getTargetInfo', { targetId: page.tab }, this.browserSession).then(
            (reply) => this.targetChanged(reply.targetInfo),
            () => {},
          );
        }
        return;
      }
      case 'Target.detachedFromTarget': {
        const { sessionId } = message.params as { sessionId: string };
        const closed = this.pages.detached(sessionId);
        if (!closed) return;
        this.latest.delete(closed.tab);
        this.store.targetEvent({ t: this.elapsed(), target: closed.tab, event: 'closed' });
        this.emit({ type: 'tabs', tabs: this.liveTabs() });
        return;
      }
      case 'Target.targetInfoChanged':
        return this.targetChanged((message.params as { targetInfo: TargetInfo }).targetInfo);
    }
  }

  private targetChanged(targetInfo: TargetInfo): void {
    const tab = this.pages.get(targetInfo.targetId);
    if (!tab || this.stoppedAt !== null || (tab.url === targetInfo.url && tab.title === targetInfo.title)) return;
    tab.url = targetInfo.url;
    tab.title = targetInfo.title;
    this.store.targetEvent({ t: this.elapsed(), target: targetInfo.targetId, event: 'changed', url: targetInfo.url, title: targetInfo.title });
    this.emit({ type: 'tabs', tabs: this.liveTabs() });
  }

  private liveTabs(): LiveTab[] {
    return this.pages.states().map(({ targetId, url, title }) => ({ targetId, url, title }));
  }

  private frame(params: ScreencastFrame, session: string, ctx: PluginContext): void {
    void ctx.send('Page.screencastFrameAck', { sessionId: params.sessionId }, session).catch(() => {});
    const page = this.pages.ofPageSession(session)?.state;
    if (!page || this.stoppedAt !== null) return;
    const hash = createHash('sha1').update(params.data).digest();
    if (page.lastHash?.equals(hash)) {
      this.duplicatesSkipped++;
      return;
    }
    page.lastHash = hash;
    const t = this.frameTime(params.metadata?.timestamp);
    const jpeg = Buffer.from(params.data, 'base64');
    const size = jpegSize(jpeg) ?? { width: params.metadata?.deviceWidth ?? 0, height: params.metadata?.deviceHeight ?? 0 };
    const result = this.store.frame(page.targetId, t, jpeg, size.width, size.height);
    if (result === 'cap') this.stop('byte-cap');
    else if (result === 'stored') {
      const frame = { t, at: this.startedAt + t, data: params.data };
      this.latest.set(page.targetId, frame);
      if (this.listeners.size > 0) this.emit({ type: 'frame', targetId: page.targetId, ...frame });
    }
  }

  private elapsed(): number {
    return Math.max(0, this.now() - this.startedAt);
  }

  /**
   * A frame's time in the recording: the browser's swap time when it gives one that makes sense
   * (frames can arrive late under load), else the arrival time; never before the previous frame.
   */
  private frameTime(timestamp: number | undefined): number {
    const arrival = this.elapsed();
    let t = arrival;
    if (typeof timestamp === 'number' && Number.isFinite(timestamp)) {
      const swapped = timestamp * 1000 - this.startedAt;
      if (swapped >= -1_000 && swapped <= arrival + 1_000) t = swapped;
    }
    this.lastT = Math.max(this.lastT, Math.max(0, Math.round(t)));
    return this.lastT;
  }
}

interface ScreencastFrame {
  data: string;
  sessionId: number;
  metadata?: { timestamp?: number; deviceWidth?: number; deviceHeight?: number };
}
