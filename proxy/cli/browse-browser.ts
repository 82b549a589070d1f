// The browser a `gateway browse` session holds (browse-daemon.ts): opened the first time with the
// endpoint and token of the command that needs it, and checked against those of every later
// command of the session.
import { SessionSet } from '../agent/session-set';
import type { AgentSession } from '../agent/session';
import type { AgentEndpoint } from '../agent/types';
import type { WireRequest } from './browse-wire.mjs';
import { DEFAULT_IDLE_MINUTES, MAX_IDLE_MINUTES, MIN_IDLE_MINUTES, type BrowseFlags } from './browse-args.mjs';
import { connectUrl, resolveCredentials } from './credentials';
import { maskEndpoint } from './browse-words';
import { browserWebSocket, browseTarget } from './devtools-endpoint';
import { CliError } from './output';

export interface Browser {
  set: SessionSet;
  session: AgentSession;
  /** The connect URL without the token, to compare a later --endpoint with. */
  endpoint: string;
  token: string | null;
  shown: string;
  kind: AgentEndpoint['kind'];
}

/** The idle close a command asks for, held within the bounds of a browse session. */
export function idleMinutes(flags: BrowseFlags): number {
  const wanted = flags.idleMinutes ?? DEFAULT_IDLE_MINUTES;
  return Math.min(MAX_IDLE_MINUTES, Math.max(MIN_IDLE_MINUTES, wanted));
}

/** Refuses a later command of session `name` whose --endpoint or --token is not the open browser's; notes an --idle-minutes it cannot apply. */
export function checkSameBrowser(name: string, browser: Browser, flags: BrowseFlags, notes: string[]): void {
  if (flags.endpoint) {
    if (connectUrl(flags.endpoint).href !== browser.endpoint)
      throw new CliError(
        `browse session "${name}" is using ${browser.shown}, not ${maskEndpoint(connectUrl(flags.endpoint).href)}; close it first (gateway browse close --session ${name}) or use another --session`,
      );
  }
  if (flags.token && flags.token !== browser.token)
    throw new CliError(
      `browse session "${name}" was opened with another token; close it first (gateway browse close --session ${name}) or use another --session`,
    );
  if (flags.idleMinutes !== undefined && Math.round(idleMinutes(flags) * 60_000) !== browser.session.idleMs)
    notes.push(
      `--idle-minutes takes effect when a browser opens; this one keeps its ${(browser.session.idleMs / 60_000).toFixed(2).replace(/\.?0+$/, '')} minutes`,
    );
}

/** Opens the session's browser with the command's endpoint and token (its flags, else its environment, else the saved login). */
export async function openSessionBrowser(request: WireRequest): Promise<Browser> {
  const flags = request.flags;
  const env = { ...process.env, GW_ENDPOINT: request.env?.GW_ENDPOINT, GW_TOKEN: request.env?.GW_TOKEN };
  const { endpoint, token } = resolveCredentials({ endpoint: flags.endpoint, token: flags.token }, env);
  if (!endpoint)
    throw new CliError('not logged in (no endpoint): pass --endpoint <url>, set GW_ENDPOINT, or run gateway login --endpoint <url> --token <token>');
  const url = connectUrl(endpoint.value, token?.value);
  const bare = connectUrl(endpoint.value);
  // A gateway, or a browser's DevTools address (http://host:port of --remote-debugging-port too).
  const target = await browseTarget(endpoint.value, token?.value);
  const kind: AgentEndpoint['kind'] = target.kind;
  const address =
    target.kind === 'browser'
      ? () => browserWebSocket(target.devtools, 'start the browser with --remote-debugging-port, or give another --endpoint')
      : async () => url.href;
  const set = new SessionSet(
    { kind, connect: async () => ({ url: await address() }) },
    { maxSessions: 1, minIdleMs: MIN_IDLE_MINUTES * 60_000, maxIdleMs: MAX_IDLE_MINUTES * 60_000 },
  );
  // Console capture on: `observe` promises console output (the MCP tools leave it off by default).
  const session = await set.open({ idleMinutes: idleMinutes(flags), pageConsole: true });
  const shown = target.kind === 'browser' ? target.devtools.href : maskEndpoint(url.href);
  return { set, session, endpoint: bare.href, token: token?.value ?? null, shown, kind };
}
