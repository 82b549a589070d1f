// One tab of an agent session: its CDP session (flat mode), its main frame's current document
// (loaderId), the agent's isolated world in that document, the requests in flight (to let an
// action settle) and the last snapshot shown (for diffs). A new document means a new world, and
// with it an empty ref table: refs of the old document cannot resolve here (docs/agents.md, "Refs").
import { readFileSync } from 'node:fs';
import { CdpError } from '../../lib/cdp/errors';
import type { CdpSocket } from '../../lib/cdp/socket';
import type { SnapshotLine } from './snapshot';
import { AgentError } from './types';
import type { CdpMethod, CdpResult, CdpSendParams } from '../../lib/cdp/protocol';

const AGENT_SCRIPT = readFileSync(new URL('./page-scripts/agent.js', import.meta.url), 'utf8');
/** The isolated world's name: what a page could see of us in CDP-only lists, never in its own globals. */
const WORLD_NAME = 'agent-tools';

/** Requests that never finish by design do not hold an action's settling. */
const LONG_LIVED = new Set(['EventSource', 'WebSocket', 'Ping']);

export class Tab {
  url = '';
  title = '';
  frameId = '';
  loaderId = '';
  /** The main frame is loading a new document (from frameStartedLoading to frameStoppedLoading). */
  loading = false;
  /** The last snapshot's lines and the document they were taken in. */
  shown: { loaderId: string; lines: SnapshotLine[] } | null = null;
  private world: { loaderId: string; contextId: number } | null = null;
  /** Requests in flight: when each started and its address (for a failure report). */
  private readonly inflight = new Map<string, { started: number; url: string; counts: boolean }>();
  private readonly loadWaiters = new Set<() => void>();

  constructor(
    private readonly cdp: CdpSocket,
    readonly targetId: string,
    readonly sessionId: string,
  ) {}

  /** Reads the main frame and turns on the events the toolkit needs; Runtime only when asked (bot detectors notice it). */
  async init(options: { pageConsole: boolean }): Promise<void> {
    const commands: Promise<unknown>[] = [
      this.send('Page.enable'),
      this.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
      this.send('Page.getFrameTree').then(({ frameTree }) => {
        this.frameId = frameTree.frame.id;
        this.loaderId = frameTree.frame.loaderId;
        this.url = frameTree.frame.url;
      }),
    ];
    if (options.pageConsole) commands.push(this.send('Runtime.enable'));
    await Promise.all(commands);
    // A tab opened paused (a popup of a page that waits for debuggers) goes on.
    void this.send('Runtime.runIfWaitingForDebugger').catch(() => {});
  }

  send<M extends CdpMethod>(method: M, params: CdpSendParams<M> = {}, timeoutMs?: number): Promise<CdpResult<M>> {
    return this.cdp.send(method, params, this.sessionId, timeoutMs);
  }

  // ---- events routed here by the session

  onFrameNavigated(frame: { id: string; parentId?: string; loaderId: string; url: string }): void {
    if (frame.parentId) return;
    this.frameId = frame.id;
    this.url = frame.url;
    if (frame.loaderId !== this.loaderId) {
      this.loaderId = frame.loaderId;
      this.world = null;
    }
  }

  onLoading(frameId: string, loading: boolean): void {
    if (frameId !== this.frameId) return;
    this.loading = loading;
    if (!loading) this.wakeLoadWaiters();
  }

  onLoad(): void {
    this.wakeLoadWaiters();
  }

  onRequest(requestId: string, url: string, type: string | undefined): void {
    // A redirect reuses the request id: the entry keeps its start.
    const known = this.inflight.get(requestId);
    this.inflight.set(requestId, { started: known?.started ?? Date.now(), url, counts: !(type && LONG_LIVED.has(type)) });
    // Requests nobody finished (a tab that navigated away mid-load) must not pile up.
    if (this.inflight.size > 2_000) this.inflight.delete(this.inflight.keys().next().value!);
  }

  /** Forgets a finished request and returns its address. */
  onRequestDone(requestId: string): string | null {
    const entry = this.inflight.get(requestId);
    this.inflight.delete(requestId);
    return entry?.url ?? null;
  }

  /** Requests started at or after `since` that are still running (long-lived streams aside). */
  pendingSince(since: number): number {
    let count = 0;
    for (const entry of this.inflight.values()) if (entry.counts && entry.started >= since) count++;
    return count;
  }

  /** Resolves when the main frame stops loading or its load event fires, or after `timeoutMs`; true when it did. */
  waitForLoad(timeoutMs: number): Promise<boolean> {
    if (!this.loading) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.loadWaiters.delete(done);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.loadWaiters.delete(done);
        resolve(false);
      }, timeoutMs);
      this.loadWaiters.add(done);
    });
  }

  private wakeLoadWaiters(): void {
    for (const wake of [...this.loadWaiters]) wake();
  }

  // ---- the agent's isolated world

  /**
   * Calls `__agent.<method>(…args)` in this document's world, making the world when the document
   * has none yet. A world lost mid-call (the document went away) is made again once for reads;
   * callers that act on refs never retry (their refs belonged to the lost document).
   */
  async call<T>(method: string, args: unknown[], options: { retry?: boolean; timeoutMs?: number } = {}): Promise<T> {
    const expression = `globalThis.__agent.${method}(${args.map((a) => JSON.stringify(a)).join(', ')})`;
    return this.evaluateInWorld<T>(expression, options);
  }

  /** Evaluates any expression in the world (the data API's extraction runs here too). */
  async evaluateInWorld<T>(expression: string, options: { retry?: boolean; timeoutMs?: number } = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const contextId = await this.worldContext();
      try {
        const { result, exceptionDetails } = await this.send(
          'Runtime.evaluate',
          { expression, contextId, returnByValue: true, awaitPromise: true },
          options.timeoutMs,
        );
        if (exceptionDetails)
          throw new AgentError('browser', `the page script failed: ${exceptionDetails.exception?.description?.split('\n')[0] ?? exceptionDetails.text}`);
        return result.value as T;
      } catch (error) {
        if (
          !(error instanceof CdpError) ||
          error.kind !== 'answered' ||
          !/context|Execution context was destroyed|Inspected target navigated/i.test(error.details.detail ?? '')
        )
          throw error;
        this.world = null;
        if (!options.retry || attempt >= 1) throw new AgentError('stale_ref', 'the page changed while the toolkit read it');
      }
    }
  }

  private async worldContext(): Promise<number> {
    if (this.world && this.world.loaderId === this.loaderId) return this.world.contextId;
    const loaderId = this.loaderId;
    const { executionContextId } = await this.send('Page.createIsolatedWorld', { frameId: this.frameId, worldName: WORLD_NAME, grantUniveralAccess: false });
    const { exceptionDetails } = await this.send('Runtime.evaluate', {
      expression: `(${AGENT_SCRIPT})()`,
      contextId: executionContextId,
      returnByValue: false,
    });
    if (exceptionDetails) throw new AgentError('browser', `the toolkit could not start in this page: ${exceptionDetails.text}`);
    // A navigation that committed meanwhile made this world the old document's: keep it only if not.
    if (this.loaderId === loaderId) this.world = { loaderId, contextId: executionContextId };
    return executionContextId;
  }

  /** Whether `ref` was issued in the document this tab shows now. */
  get documentId(): string {
    return this.loaderId;
  }
}
