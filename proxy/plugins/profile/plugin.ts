// The profile plugin on the pipeline lane, from the client's `101` to the saved version. It follows
// the origins the session visits (main-frame navigations, page targets), and finishes with the
// browser before the browser is released: on the client's Browser.close (held, then forwarded) or
// when the client leaves (the lane keeps the browser, beforeRelease). Finishing = capture the state
// (saving sessions) and, on a browser other sessions will use next, remove it. At the end the
// managed provider's IndexedDB snapshot is fetched and the new version saved (docs/profiles.md).
import { log } from '../../../lib/log';
import { mergeCapture, type SessionCapture } from '../../../lib/profiles/merge';
import { canonicalOrigin, type ProfileState } from '../../../lib/profiles/state';
import type { CdpMessage, PipelinePlugin, PluginContext } from '../../relay/pipeline-lane';
import type { RelayOutcome } from '../../relay/types';
import { localStorageBytes } from './archive';
import { captureFromBrowser, cleanBrowser } from './browser-state';
import type { Cdp, CdpEvent } from './cdp';

/** The provider messages the plugin reads while nothing of its own is under way (method names start the payload). */
const WATCHED = ['"Page.frameNavigated"', '"Target.targetInfoChanged"', '"Target.targetCreated"', '"Target.attachedToTarget"'];

export interface ProfilePluginOptions {
  sessionId: string;
  profileId: string;
  loaded: ProfileState;
  /** Capture and save at the end (not readOnly). */
  saving: boolean;
  /** Read IndexedDB from the pages too (managed providers). */
  indexedDB: boolean;
  /** Remove the state from the browser at the end (a browser other profiles' sessions may get). */
  cleanup: boolean;
  /** After the browser is gone: the managed provider's storage snapshot ('' = the browser had none). */
  fetchArchive?: () => Promise<string | undefined>;
  /** The archive to keep when there is no snapshot ('' = none). */
  staleArchive: () => string;
  /** Writes the new version. */
  save: (state: ProfileState) => Promise<void>;
  /** Always called last (the lock). */
  release: () => Promise<void>;
}

export class ProfilePlugin implements PipelinePlugin {
  readonly name = 'profile';
  /** Origins the session visited (navigations, its pages): read first at the end. */
  private readonly visited = new Set<string>();
  /** Origins the profile came with. */
  private readonly loadedOrigins: string[];
  private readonly listeners = new Set<(event: CdpEvent) => void>();
  private readonly helperTargets = new Set<string>();
  private readonly helperSessions = new Set<string>();
  /** While the plugin finishes with the browser on a held Browser.close: nothing goes to the client. */
  private hush = false;
  private finishing: Promise<void> | null = null;
  /** The plugin is talking to the browser now (its own tabs are about). */
  private busy = false;
  private capture: SessionCapture | null = null;
  /** Settles when the version is saved (or not) and the lock released. */
  done: Promise<void> = Promise.resolve();
  private resolveDone!: () => void;

  constructor(private readonly options: ProfilePluginOptions) {
    this.loadedOrigins = Object.keys(options.loaded.storage);
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  wantsProviderMessage(payload: Buffer): boolean {
    if (this.hush || this.busy) return true;
    const head = payload.subarray(0, 48).toString('latin1');
    return WATCHED.some((method) => head.includes(method));
  }

  onClientMessage(message: CdpMessage, ctx: PluginContext): void | 'drop' {
    if (message.method !== 'Browser.close' || message.sessionId || this.finishing) return;
    // Hold the close: the browser is needed once more. Then forward it; its reply reaches the client.
    this.hush = true;
    void this.finishWithBrowser(ctx).finally(() => {
      this.hush = false;
      ctx.forward(message);
    });
    return 'drop';
  }

  onProviderMessage(message: CdpMessage, ctx: PluginContext): void | 'drop' {
    const params = (message.params ?? {}) as Record<string, unknown>;
    if (message.method) {
      this.follow(message.method, params);
      for (const listener of this.listeners) listener({ method: message.method, params, ...(message.sessionId ? { sessionId: message.sessionId } : {}) });
      if (this.isHelperTraffic(message, params, ctx)) return 'drop';
      // Finishing: the client's auto-attach (waitForDebuggerOnStart) would hold the helper tabs
      // paused, and nobody on the client side will resume them now.
      if ((this.hush || this.busy) && message.method === 'Target.attachedToTarget' && params.waitingForDebugger && typeof params.sessionId === 'string') {
        void ctx.send('Runtime.runIfWaitingForDebugger', {}, params.sessionId).catch(() => {});
      }
    }
    if (this.hush) return 'drop';
  }

  beforeRelease(ctx: PluginContext): Promise<void> {
    return this.finishWithBrowser(ctx);
  }

  onEnd(_outcome: RelayOutcome): Promise<void> {
    const run = async () => {
      try {
        if (!this.options.saving) return;
        if (!this.capture) {
          log.warn(
            { sessionId: this.options.sessionId, profileId: this.options.profileId, finished: this.finishing !== null },
            'profile: nothing was captured (the browser was gone or out of time); the saved version is kept',
          );
          return;
        }
        let archive: string | undefined;
        if (this.options.fetchArchive)
          archive = await this.options.fetchArchive().catch((error: Error) => {
            log.warn({ sessionId: this.options.sessionId, err: error.message }, 'profile: storage snapshot unavailable; the saved IndexedDB is kept');
            return undefined;
          });
        const storageArchive = archive ?? this.options.staleArchive();
        const next = mergeCapture(this.options.loaded, {
          ...this.capture,
          storageArchive,
          storageArchiveDuplicateBytes: archive === undefined ? 0 : localStorageBytes(archive),
        });
        if (!next) {
          log.info({ sessionId: this.options.sessionId, profileId: this.options.profileId }, 'profile: empty capture; the saved version is kept');
          return;
        }
        await this.options.save(next);
      } catch (error) {
        log.warn({ sessionId: this.options.sessionId, profileId: this.options.profileId, err: (error as Error).message }, 'profile: not saved');
      } finally {
        await this.options.release().catch(() => {});
        this.resolveDone();
      }
    };
    return run();
  }

  /** Capture (saving sessions), then clean (shared browsers); once per session. */
  private finishWithBrowser(ctx: PluginContext): Promise<void> {
    this.finishing ??= (async () => {
      this.busy = true;
      const cdp: Cdp = {
        send: (method, params, sessionId) => ctx.send(method, params, sessionId),
        onEvent: (listener) => {
          this.listeners.add(listener);
          return () => this.listeners.delete(listener);
        },
      };
      const onHelper = ({ targetId, sessionId }: { targetId?: string; sessionId?: string }) => {
        if (targetId) this.helperTargets.add(targetId);
        if (sessionId) this.helperSessions.add(sessionId);
      };
      const pages = await ctx.send('Target.getTargets', {}).catch(() => ({ targetInfos: [] }));
      for (const target of pages.targetInfos) if (target.type === 'page') this.addOrigin(target.url);
      const origins = [...new Set([...this.visited, ...this.loadedOrigins])];
      if (this.options.saving) {
        try {
          const capture = await captureFromBrowser(cdp, { origins, indexedDB: this.options.indexedDB, onHelper });
          if (capture.skippedOrigins.length > 0) {
            const { skippedBecause: because, durationMs } = capture;
            log.warn(
              { sessionId: this.options.sessionId, skipped: capture.skippedOrigins.length, because, durationMs, read: Object.keys(capture.storage).length },
              'profile: some origins were not read; they keep their saved state',
            );
          }
          this.capture = capture;
        } catch (error) {
          log.warn({ sessionId: this.options.sessionId, err: (error as Error).message }, 'profile: capture failed; the saved version is kept');
        }
      }
      if (this.options.cleanup) {
        await cleanBrowser(cdp, origins).catch((error: Error) =>
          log.warn({ sessionId: this.options.sessionId, err: error.message }, 'profile: could not clear the browser for the next session'),
        );
      }
    })().finally(() => (this.busy = false));
    return this.finishing;
  }

  private follow(method: string, params: Record<string, unknown>): void {
    if (method === 'Page.frameNavigated') {
      const frame = params.frame as { parentId?: string; url?: string } | undefined;
      if (frame && !frame.parentId && frame.url) this.addOrigin(frame.url);
    } else if (method === 'Target.targetInfoChanged' || method === 'Target.targetCreated' || method === 'Target.attachedToTarget') {
      const info = params.targetInfo as { type?: string; url?: string } | undefined;
      if (info?.type === 'page' && info.url) this.addOrigin(info.url);
    }
  }

  private addOrigin(url: string): void {
    const origin = canonicalOrigin(url);
    if (origin) this.visited.add(origin);
  }

  /** Messages about the plugin's own helper tabs never reach the client. */
  private isHelperTraffic(message: CdpMessage, params: Record<string, unknown>, ctx: PluginContext): boolean {
    if (message.sessionId && this.helperSessions.has(message.sessionId)) return true;
    const info = params.targetInfo as { targetId?: string } | undefined;
    const targetId = (params.targetId as string | undefined) ?? info?.targetId;
    if (targetId && this.helperTargets.has(targetId)) {
      // The client's auto-attach may hold a helper tab at start: let it run, keep the session ours.
      if (message.method === 'Target.attachedToTarget' && typeof params.sessionId === 'string') {
        this.helperSessions.add(params.sessionId);
        if (params.waitingForDebugger) void ctx.send('Runtime.runIfWaitingForDebugger', {}, params.sessionId).catch(() => {});
      }
      return true;
    }
    if (message.method === 'Target.detachedFromTarget' && typeof params.sessionId === 'string' && this.helperSessions.has(params.sessionId)) return true;
    return false;
  }
}
