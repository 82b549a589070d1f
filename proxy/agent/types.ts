// The agent toolkit's public shapes (docs/agents.md): what the MCP surface (proxy/mcp/) and the
// command line hand to it and get back. The toolkit itself never knows who is calling.

/** Where a browser comes from: a CDP WebSocket address, asked for afresh on every open. */
export interface AgentEndpoint {
  /**
   * A WebSocket address for one browser: the proxy's own /v1/connect (with a one-time agent ticket),
   * a gateway's, or a browser's own /devtools/browser/… address.
   */
  connect(options: ResolvedOptions): Promise<{ url: string; headers?: Record<string, string> }>;
  /** Fills what the caller left unset (the router's agent defaults); without it, everything is off. */
  resolve?(options: OpenOptions): Promise<ResolvedOptions>;
  /** `connect`: closing the WebSocket ends the session; `browser`: a browser of the user's own, whose tabs we opened are closed and nothing else. */
  kind: 'connect' | 'browser';
}

/** What a caller may ask for when opening; unset fields take the router's agent defaults. */
export interface OpenOptions {
  /** Close the browser after this many minutes without a tool call (default 5, clamped to 1–30). */
  idleMinutes?: number;
  /** Record the session (session_record=true). */
  record?: boolean;
  /** Trace the session (observability=true). */
  trace?: boolean;
  /** A profile slug to load; null for none. */
  profile?: string | null;
  /** Save the browser's state back to the profile at close (otherwise the profile is read-only). */
  saveProfile?: boolean;
  /** Capture console messages for `observe` (turns on Runtime events, which some bot detectors notice). */
  pageConsole?: boolean;
}

/** Open options with every choice made. */
export type ResolvedOptions = { record: boolean; trace: boolean; profile: string | null; saveProfile: boolean; pageConsole: boolean; idleMinutes?: number };

/** The state of one browser session as tools report it. */
export interface SessionState {
  /** The toolkit's id for this browser (`br_…`), what tools take as `sessionId`. */
  id: string;
  /** The session row's id when the browser came through /v1/connect (`X-Session-Id`), else null. */
  sessionLogId: string | null;
  openedAt: string;
  lastActivityAt: string;
  /** When the idle close will happen if no tool is called before. */
  idleCloseAt: string;
  idleMinutes: number;
  tabs: TabInfo[];
  options: { record: boolean; trace: boolean; profile: string | null; saveProfile: boolean; pageConsole: boolean };
}

export interface TabInfo {
  tabId: string;
  url: string;
  title: string;
  current: boolean;
}

export interface SnapshotOptions {
  /** `viewport` (default): elements in view; `full`: the whole page. */
  scope?: 'viewport' | 'full';
  /** Only what can be clicked or typed into (default true); false adds headings and landmarks. */
  interactiveOnly?: boolean;
  /** At most this many element lines (default 200, at most 1,000). */
  maxLines?: number;
  /** Only what changed since the previous snapshot of this tab. */
  sinceLast?: boolean;
}

export type ActionStep =
  | { action: 'click' | 'hover' | 'check' | 'uncheck'; ref: string }
  | { action: 'fill' | 'type'; ref: string; text: string }
  | { action: 'press'; key: string; ref?: string }
  | { action: 'select'; ref: string; option: string }
  | { action: 'scroll'; direction: 'up' | 'down' | 'left' | 'right'; amount?: number; ref?: string };

export interface ScreenshotOptions {
  ref?: string;
  fullPage?: boolean;
  /** JPEG quality 1–100 (default 60). */
  quality?: number;
  /** Return no image when it is byte-identical to the previous screenshot of this session. */
  skipIfUnchanged?: boolean;
}

export interface ExtractOptions {
  format?: 'markdown' | 'text' | 'links';
  /** At most this many characters (default 8,000, at most 100,000). */
  maxChars?: number;
}

export interface WaitOptions {
  text?: string;
  textGone?: string;
  selector?: string;
  urlContains?: string;
  /** Default 5,000, at most 30,000. */
  timeoutMs?: number;
}

export type TabsRequest = { action: 'list' } | { action: 'new'; url?: string } | { action: 'select'; tabId: string } | { action: 'close'; tabId: string };

/**
 * An error a model can act on: `message` says what went wrong and what to do next. Tools return it
 * as an error result; anything else thrown is a bug of ours and is reported without internals.
 */
export class AgentError extends Error {
  constructor(
    readonly code: 'stale_ref' | 'unknown_ref' | 'not_actionable' | 'timeout' | 'navigation' | 'invalid' | 'closed' | 'not_found' | 'browser',
    message: string,
  ) {
    super(message);
  }
}
