// One agent browser: a CDP connection from the endpoint, its tabs, the refs handed out, what the
// page did (observe), and the timers of its life (idle close, hard cap, keepalive). Tool calls on
// one session run one at a time, in order: a model that sends two at once gets both answered as if
// sent one after the other.
import { randomBytes } from 'node:crypto';
import { closeOwnTargets, openOwnContext } from './browser-context';
import type { CdpSocket } from '../../lib/cdp/socket';
import { PageSessions } from '../../lib/cdp/page-sessions';
import { closedWords, openBrowser } from './cdp';
import { idleMsFor, type AgentPolicy } from './policy';
import { Tab } from './tab';
import { AgentError, type AgentEndpoint, type ResolvedOptions, type SessionState, type TabInfo } from './types';
import { Observations } from './observations';
import { followBrowser } from './session-events';

export class AgentSession {
  readonly id = `br_${randomBytes(9).toString('base64url')}`;
  readonly openedAt = new Date();
  readonly idleMs: number;
  readonly observations = new Observations();
  /** Refs handed out: the tab and document each belongs to. Numbers are never reused in a session. */
  readonly refs = new Map<string, { tab: Tab; loaderId: string }>();
  nextRef = 1;
  lastShot: string | null = null;
  /** The tabs it is attached to, each on a session of its own. */
  private readonly tabs = new PageSessions<Tab>((target, sessionId) => new Tab(this.cdp, target.targetId, sessionId));
  /**
   * The tabs this session may see: the ones it opened and the popups they opened. Whatever the
   * provider: a long-lived browser (the user's own, or an address provider behind the gateway)
   * holds the tabs of its other users and of earlier sessions, never to be adopted or driven.
   */
  private readonly scope = new Set<string>();
  /** The browser context the session's tabs are created in (browser-context.ts); null: the default one. */
  private contextId: string | null = null;
  private currentTab: Tab | null = null;
  private lastActivity = Date.now();
  private idleTimer: NodeJS.Timeout | null = null;
  /** Tool calls running or waiting their turn: while there are any, the session is not idle. */
  private calls = 0;
  private readonly lifetimeTimer: NodeJS.Timeout;
  private readonly keepaliveTimer: NodeJS.Timeout;
  private queue: Promise<unknown> = Promise.resolve();
  private closedReason: string | null = null;
  private readonly closeListeners = new Set<(reason: string) => void>();
  /** Failures of the same step, for the loop guard. */
  private readonly failures = new Map<string, number>();

  private constructor(
    readonly cdp: CdpSocket,
    readonly endpoint: AgentEndpoint,
    readonly options: ResolvedOptions,
    readonly policy: AgentPolicy,
  ) {
    this.idleMs = idleMsFor(policy, options.idleMinutes);
    this.lifetimeTimer = setTimeout(
      () => void this.close(`the session reached its ${Math.round(policy.maxLifetimeMs / 3_600_000)}-hour limit`),
      policy.maxLifetimeMs,
    ).unref();
    // The keepalive is a round trip to the browser; it does not touch lastActivity.
    this.keepaliveTimer = setInterval(() => void cdp.send('Browser.getVersion', {}, undefined, 10_000).catch(() => {}), policy.keepaliveMs).unref();
    cdp.onClose((error) => void this.close(closedWords(error)));
  }

  /**
   * Opens a browser through the endpoint, a context of its own in it (browser-context.ts) and a tab
   * there; the browser's other tabs, the user's own included, are left alone.
   */
  static async open(endpoint: AgentEndpoint, options: ResolvedOptions, policy: AgentPolicy): Promise<AgentSession> {
    const { url, headers } = await endpoint.connect(options);
    const cdp = await openBrowser(url, headers);
    const session = new AgentSession(cdp, endpoint, options, policy);
    try {
      await session.start();
    } catch (error) {
      await session.close('the browser could not be set up');
      throw error;
    }
    // Idle from here: the set-up (a context and a tab of its own) is not time without a tool call,
    // and an idle close in the middle of it failed the open (seen with a short idle close under load).
    session.touch();
    return session;
  }

  /** The session row's id when the browser came through /v1/connect. */
  get sessionLogId(): string | null {
    const value = this.cdp.headers['x-session-id'];
    return typeof value === 'string' ? value : null;
  }

  get closed(): string | null {
    return this.closedReason;
  }

  onClose(listener: (reason: string) => void): void {
    if (this.closedReason) listener(this.closedReason);
    else this.closeListeners.add(listener);
  }

  private async start(): Promise<void> {
    const cdp = this.cdp;
    followBrowser(cdp, { tabs: this.tabs, scope: this.scope, observations: this.observations, tabClosed: (tab) => this.tabClosed(tab) });
    await cdp.send('Target.setDiscoverTargets', { discover: true });
    this.contextId = await openOwnContext(cdp, this.endpoint, this.options);
    // A tab of its own, even in a fresh browser: its first tab may be a default tab another client uses.
    this.currentTab = await this.createTab();
  }

  private async attach(targetId: string): Promise<Tab> {
    const existing = this.tabs.get(targetId);
    if (existing) return existing;
    const { sessionId } = await this.cdp.send('Target.attachToTarget', { targetId, flatten: true });
    const { state: tab } = this.tabs.attached(sessionId, { targetId, type: 'page' })!;
    await tab.init({ pageConsole: this.options.pageConsole });
    const { targetInfo } = await this.cdp.send('Target.getTargetInfo', { targetId });
    tab.url = targetInfo.url;
    tab.title = targetInfo.title;
    return tab;
  }

  /** A new blank tab, attached; tools navigate it with `openIn` so that they can wait for the load. */
  async createTab(): Promise<Tab> {
    const { targetId } = await this.cdp.send('Target.createTarget', { url: 'about:blank', browserContextId: this.contextId ?? undefined });
    this.scope.add(targetId);
    return this.attach(targetId);
  }

  private dropTab(targetId: string): void {
    this.tabClosed(this.tabs.destroyed(targetId)?.state);
  }

  private tabClosed(tab: Tab | undefined): void {
    if (tab && this.currentTab === tab) this.currentTab = this.tabs.states()[0] ?? null;
  }

  /**
   * The tab tools act on, brought to the front: a tab hidden behind another never paints and its
   * timers are throttled, so every action on it would wait. A session whose last tab closed gets a
   * new blank one.
   */
  async tab(): Promise<Tab> {
    this.currentTab ??= await this.createTab();
    const tab = this.currentTab;
    await tab.send('Page.bringToFront').catch(() => {});
    return tab;
  }

  async listTabs(): Promise<TabInfo[]> {
    const { targetInfos } = await this.cdp.send('Target.getTargets');
    return targetInfos
      .filter((t) => t.type === 'page' && !t.url.startsWith('devtools://') && this.scope.has(t.targetId))
      .map((t) => ({ tabId: t.targetId, url: t.url, title: t.title, current: this.currentTab?.targetId === t.targetId }));
  }

  async selectTab(tabId: string): Promise<Tab> {
    const tabs = await this.listTabs();
    if (!tabs.some((t) => t.tabId === tabId)) throw new AgentError('not_found', `no tab ${tabId} in this session; list them with browser_tabs`);
    const tab = await this.attach(tabId);
    await this.cdp.send('Target.activateTarget', { targetId: tabId }).catch(() => {});
    this.currentTab = tab;
    return tab;
  }

  async closeTab(tabId: string): Promise<void> {
    const tabs = await this.listTabs();
    if (!tabs.some((t) => t.tabId === tabId)) throw new AgentError('not_found', `no tab ${tabId} in this session; list them with browser_tabs`);
    // closeTarget answers before the tab is gone; the answer waits for it (a list made at once would still show it).
    let unsubscribe = () => {};
    const gone = new Promise<void>((resolve) => {
      unsubscribe = this.cdp.on('Target.targetDestroyed', ({ targetId }) => targetId === tabId && resolve());
    });
    try {
      await this.cdp.send('Target.closeTarget', { targetId: tabId });
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    } finally {
      unsubscribe();
    }
    this.dropTab(tabId);
    this.scope.delete(tabId);
  }

  /** Runs one tool call after the ones before it. Idle time counts from the last call's end, never during one. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const closed = () =>
      new AgentError('closed', `this browser session is closed: ${this.closedReason}. Open a new one with browser_session {"action":"open"}.`);
    if (this.closedReason) return Promise.reject(closed());
    this.calls++;
    this.touch();
    const next = this.queue.then(() => (this.closedReason ? Promise.reject(closed()) : work()));
    const done = () => {
      this.calls--;
      this.touch();
    };
    next.then(done, done);
    this.queue = next.catch(() => {});
    return next;
  }

  /** Counts failures of the same step; the third says to try something else (models loop otherwise). */
  noteFailure(step: string): number {
    const count = (this.failures.get(step) ?? 0) + 1;
    this.failures.set(step, count);
    if (this.failures.size > 100) this.failures.delete(this.failures.keys().next().value!);
    return count;
  }

  clearFailure(step: string): void {
    this.failures.delete(step);
  }

  private touch(): void {
    this.lastActivity = Date.now();
    this.armIdle();
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.calls > 0 || this.closedReason) return;
    this.idleTimer = setTimeout(() => void this.close(`closed after ${formatMinutes(this.idleMs)} without a tool call`), this.idleMs).unref();
  }

  async state(): Promise<SessionState> {
    const tabs = this.closedReason ? [] : await this.listTabs().catch(() => []);
    return {
      id: this.id,
      sessionLogId: this.sessionLogId,
      openedAt: this.openedAt.toISOString(),
      lastActivityAt: new Date(this.lastActivity).toISOString(),
      idleCloseAt: new Date(this.lastActivity + this.idleMs).toISOString(),
      idleMinutes: Math.round((this.idleMs / 60_000) * 100) / 100,
      tabs,
      options: {
        record: this.options.record,
        trace: this.options.trace,
        profile: this.options.profile,
        saveProfile: this.options.saveProfile,
        pageConsole: this.options.pageConsole,
      },
    };
  }

  /** Ends the session: its context or the tabs it opened (popups included) close, then the connection (a routed session ends with it). */
  async close(reason: string): Promise<void> {
    if (this.closedReason) return;
    this.closedReason = reason;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    clearTimeout(this.lifetimeTimer);
    clearInterval(this.keepaliveTimer);
    if (!this.cdp.closed) await closeOwnTargets(this.cdp, this.contextId, this.scope);
    this.cdp.close();
    for (const listener of this.closeListeners) listener(reason);
    this.closeListeners.clear();
  }
}

function formatMinutes(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes >= 1 && Number.isInteger(minutes)) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(ms / 1000)} s`;
}
