// The trace plugin (docs/traces.md, "Capture"): network requests, console output, exceptions and
// navigations of every tab, read from the traffic the client already gets. It sends nothing and
// changes nothing: a client that never enabled a domain on a tab (`Network.enable`,
// `Runtime.enable`, `Page.enable`) gets a note in the trace saying what could not be seen there,
// rather than the domain being enabled behind its back (enabling Runtime is visible to pages and
// is what careful clients avoid).
//
// Only provider events of the methods below are parsed (a cheap test on their first bytes); the
// client's commands are parsed only when they enable something. Events of the other plugins' own
// CDP sessions never get here: they come first in the pipeline and drop them.
import { PageSessions } from '../../../lib/cdp/page-sessions';
import type { CapturedEvent, NoteEvent } from '../../../lib/traces/format';
import { clip, URL_MAX_CHARS } from '../../../lib/traces/format';
import { NO_EXTRA_NAMES, redactUrl } from '../../../lib/traces/redact';
import { DOWNLOAD_METHODS, DownloadWatch } from './downloads';
import { eventOf } from './event-of';
import type { CdpMessage, PipelinePlugin } from '../../relay/pipeline-lane';

export type StopReason = 'event-cap' | 'wallet-drained';
type Domain = 'network' | 'console' | 'navigation';

/** What the trace keeps: the event methods it reads, and the domain whose `enable` the client must have sent for them to flow. */
const CAPTURED = new Map<string, Domain | null>([
  ['Network.requestWillBeSent', 'network'],
  ['Network.responseReceived', 'network'],
  ['Network.loadingFinished', 'network'],
  ['Network.loadingFailed', 'network'],
  ['Runtime.consoleAPICalled', 'console'],
  ['Runtime.exceptionThrown', 'console'],
  ['Log.entryAdded', 'console'],
  ['Page.frameNavigated', 'navigation'],
  ['Page.navigatedWithinDocument', 'navigation'],
  // Tabs: which CDP session is which tab.
  ['Target.attachedToTarget', null],
  ['Target.detachedFromTarget', null],
  ['Target.targetDestroyed', null],
  // Downloads (downloads.ts), enabled by the client's setDownloadBehavior or Page.enable.
  ...DOWNLOAD_METHODS.map((method) => [method, null] as const),
]);
const ENABLES = new Map<string, Domain>([
  ['Network.enable', 'network'],
  ['Runtime.enable', 'console'],
  ['Page.enable', 'navigation'],
]);
const DOMAIN_WORDS: Record<Domain, string> = {
  network: 'network requests (Network.enable)',
  console: 'console output and exceptions (Runtime.enable)',
  navigation: 'navigations (Page.enable)',
};

const EVENT_PREFIX = Buffer.from('{"method":"');
const REPLY_PREFIX = Buffer.from('{"id":');
const QUOTE = 0x22;
const ENABLE = Buffer.from('.enable"');

/** A tab the client is attached to (it closes for the trace when the client's last session of it goes). */
interface Tab {
  id: string;
  enabled: Set<Domain>;
  noted: boolean;
}

export class TracePlugin implements PipelinePlugin {
  readonly name = 'trace';
  /** The client's sessions and the tabs they belong to. */
  private readonly pages = new PageSessions<Tab>((target) => ({ id: target.targetId, enabled: new Set(), noted: false }));
  private stopped = false;
  private startedAt = 0;
  private stoppedAt: number | null = null;
  /** The client attached to a page at some point (a trace of none says so). */
  private sawPage = false;
  truncated: StopReason | null = null;
  /** The downloads seen, completed ones listed for the session (index.ts). */
  readonly downloads: DownloadWatch;

  constructor(
    /** Stores one event; false once the trace can hold no more (the plugin stops). */
    private readonly sink: { add(event: CapturedEvent): 'stored' | 'dropped' | 'full'; droppedEvents: number },
    private readonly full: StopReason,
    private readonly now: () => number = Date.now,
    /** The router's own names to redact besides the defaults (lowercase, extraRedactNames). */
    private readonly extra: ReadonlySet<string> = NO_EXTRA_NAMES,
  ) {
    this.downloads = new DownloadWatch(extra);
  }

  onStart(): void {
    this.startedAt = this.now();
  }

  /** How long capture ran: to its stop or now. */
  get capturedMs(): number {
    return this.startedAt ? Math.max(0, (this.stoppedAt ?? this.now()) - this.startedAt) : 0;
  }

  wantsProviderMessage(payload: Buffer): boolean {
    if (payload.subarray(0, EVENT_PREFIX.length).equals(EVENT_PREFIX)) {
      const end = payload.indexOf(QUOTE, EVENT_PREFIX.length);
      const method = end > 0 ? payload.toString('latin1', EVENT_PREFIX.length, end) : '';
      if (!CAPTURED.has(method)) return false;
      if (this.stopped) {
        // Past the stop an event is counted, not read (tab bookkeeping no longer matters).
        if (CAPTURED.get(method)) this.sink.droppedEvents++;
        return false;
      }
      return true;
    }
    if (payload.subarray(0, REPLY_PREFIX.length).equals(REPLY_PREFIX)) return false;
    // A provider that orders its keys otherwise: read what may be an event.
    return !this.stopped && payload.includes('"method"');
  }

  wantsClientMessage(payload: Buffer): boolean {
    return !this.stopped && payload.includes(ENABLE);
  }

  onClientMessage(message: CdpMessage): void {
    const domain = message.method ? ENABLES.get(message.method) : undefined;
    if (!domain) return;
    const tab = this.tabOf(message.sessionId);
    if (tab) this.pages.get(tab)?.enabled.add(domain);
  }

  onProviderMessage(message: CdpMessage): void {
    if (this.stopped || !message.method) return;
    const p = (message.params ?? {}) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- CDP params, read field by field
    const tab = this.tabOf(message.sessionId);
    switch (message.method) {
      case 'Target.attachedToTarget':
        return this.attached(p, message.sessionId);
      case 'Target.detachedFromTarget':
        return this.closeTab(this.pages.detached(String(p.sessionId))?.state);
      case 'Target.targetDestroyed':
        // A discovering client hears of a closed tab this way, often before the detach.
        return this.closeTab(this.pages.destroyed(String(p.targetId))?.state);
    }
    const event = eventOf(message.method, p, { t: this.now(), tab, extra: this.extra });
    if (event) return this.add(event);
    if (DOWNLOAD_METHODS.includes(message.method)) {
      // The browser-level form names the tab by its top frame, whose id is the tab's.
      const event = this.downloads.seen(message.method, p, tab ?? (this.pages.get(String(p.frameId)) ? String(p.frameId) : null), this.now());
      if (event) this.add(event);
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private attached(p: Record<string, any>, parentSession: string | undefined): void {
    const info = p.targetInfo ?? {};
    // A page is its own tab; an iframe or worker belongs to the tab of the session it was attached from.
    const opened = this.pages.attached(String(p.sessionId), { targetId: String(info.targetId), type: String(info.type ?? '') }, parentSession);
    if (!opened) return;
    this.sawPage = true;
    if (!opened.opened) return;
    this.add({
      kind: 'tab',
      t: this.now(),
      tab: opened.tab,
      action: 'opened',
      url: clip(redactUrl(String(info.url ?? ''), this.extra), URL_MAX_CHARS),
      ...(info.openerId && { openerId: String(info.openerId) }),
    });
  }

  private closeTab(tab: Tab | undefined): void {
    if (!tab) return;
    this.note(tab);
    this.add({ kind: 'tab', t: this.now(), tab: tab.id, action: 'closed' });
  }

  private tabOf(sessionId: string | undefined): string | null {
    return this.pages.tabOf(sessionId);
  }

  /** Says what the client never enabled on a tab, once. */
  private note(tab: Tab): void {
    if (tab.noted) return;
    tab.noted = true;
    const missing = (['network', 'console', 'navigation'] as const).filter((d) => !tab.enabled.has(d));
    if (missing.length === 0) return;
    const note: Omit<NoteEvent, 'seq'> = {
      kind: 'note',
      t: this.now(),
      tab: tab.id,
      code: 'not-enabled',
      missing,
      message: `The client never enabled ${missing.map((d) => DOMAIN_WORDS[d]).join(', ')} on this tab, so the trace has none: the trace only reads what the client's own connection receives.`,
    };
    this.add(note);
  }

  private add(event: CapturedEvent): void {
    if (this.stopped) return;
    if (this.sink.add(event) === 'full') {
      this.sink.droppedEvents++;
      this.stop(this.full);
    }
  }

  /** Stops capture (the event limit, or the session's end with null); the session goes on. */
  stop(reason: StopReason | null): void {
    if (this.stopped) return;
    // Tabs still open say what they missed before the trace closes.
    if (reason === null) {
      for (const tab of this.pages.states()) this.note(tab);
      if (!this.sawPage) {
        this.add({
          kind: 'note',
          t: this.now(),
          tab: null,
          code: 'not-enabled',
          missing: ['network', 'console', 'navigation'],
          message:
            "The client attached to no page during the session, so the trace has nothing of the pages: the trace only reads what the client's own connection receives.",
        });
      }
    }
    this.stopped = true;
    this.stoppedAt = this.now();
    this.truncated = reason;
  }
}
