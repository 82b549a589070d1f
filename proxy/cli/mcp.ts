// `gateway mcp`: the agent toolkit (proxy/agent/) as an MCP server on stdin/stdout, for agent tools
// that start their MCP servers as child processes (Claude Desktop, Claude Code, Cursor). The tools
// and instructions are the hosted /mcp's (proxy/mcp/tool-server.ts). Its browsers come from
// --cdp-endpoint (a browser the user runs, or a gateway's or router's connect URL), or else a local
// Chromium started on first use (local-chromium.ts), so the handshake never waits for a browser.
// With --config, or --port with --cdp-endpoint, they come through an internal gateway instead
// (mcp-config-endpoint.ts): --cdp-endpoint as its only provider, else the gateway.yml's. stdout
// carries JSON-RPC and nothing else: messages go to stderr, and so do logs (lib/log.ts).
//
// A browser reached directly (the user's own, or the local one) is endpoint kind `browser`: the
// user's own browser must keep its tabs, and the local one serves every session of this server at
// once, so each session works in tabs it opened and closes them when it ends. Through a gateway's or
// router's connect URL, or the internal gateway, each session is a connect of its own (kind
// `connect`): its own browser, with the routing, limits and queue of that gateway or router, ended
// when the session closes.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SessionSet } from '../agent/session-set';
import { AgentError, type AgentEndpoint, type ResolvedOptions } from '../agent/types';
import { agentConnectParams } from '../mcp/agent-endpoint';
import { toolServer } from '../mcp/tool-server';
import { SELF_HOSTED_MCP_INSTRUCTIONS } from '../mcp/instructions';
import { headlessFor, LocalChromium } from './local-chromium';
import { maskEndpoint } from './browse-words';
import { connectUrl } from './credentials';
import { browserWebSocket, browseTarget } from './devtools-endpoint';
import { endpointFromConfig, endpointProvider } from './mcp-config-endpoint';
import { CliError, err, UsageError } from './output';

export interface McpOptions {
  cdpEndpoint?: string;
  headless?: boolean;
  config?: string;
  port?: string;
}

export async function mcp(options: McpOptions, version: string): Promise<void> {
  const given = options.cdpEndpoint === undefined ? undefined : checkCdpEndpoint(options.cdpEndpoint);
  const port = options.port === undefined ? undefined : parsePort(options.port);
  const { endpoint, source, stop } = await browsers(options, given, port);

  const sessions = new SessionSet(endpoint);
  const server = toolServer(sessions, version, SELF_HOSTED_MCP_INSTRUCTIONS);
  // Ends when the client closes our stdin (how MCP clients stop a server), on SIGINT or SIGTERM, or
  // when stdout breaks (the client is gone). A second signal of the same kind stops it at once.
  const ended = new Promise<string>((resolve) => {
    process.stdin.once('end', () => resolve('stdin closed'));
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.stdout.once('error', (error) => resolve(`stdout failed: ${error.message}`));
  });
  await server.connect(new StdioServerTransport());
  err(`gateway mcp: serving the browser tools on stdio; browsers: ${source}`);

  const why = await ended;
  err(`gateway mcp: stopping (${why})`);
  // The user's own browser keeps its tabs: only those the sessions opened are closed.
  await sessions.closeAll('the MCP server stopped');
  await stop();
  await server.close();
  process.stdin.destroy();
}

/**
 * Where the browsers come from (docs/gateway.md, "mcp"), in words for the log, and what stops them.
 * With --config, or --port with --cdp-endpoint, an internal gateway routes to them; --cdp-endpoint
 * alone is used directly. With neither, a local Chromium, used directly: it has no fixed address
 * for a gateway to route to (started on first use, on a DevTools port of its own each time), so
 * --port then starts nothing and says so.
 */
async function browsers(
  options: McpOptions,
  given: string | undefined,
  port: number | undefined,
): Promise<{ endpoint: AgentEndpoint; source: string; stop: () => Promise<void> }> {
  if (options.config !== undefined || (given !== undefined && port !== undefined)) {
    const only = given === undefined ? undefined : endpointProvider(given);
    const gateway = await endpointFromConfig(options.config, port, only);
    const settings = options.config === undefined ? 'default settings' : `the settings of ${options.config}`;
    const providers = given === undefined ? `the providers of ${options.config}` : `--cdp-endpoint ${maskEndpoint(given)} as the only provider (${settings})`;
    return { endpoint: gateway.endpoint, source: `${providers}, through a gateway at ${gateway.url}`, stop: gateway.stop };
  }
  if (given !== undefined) return { endpoint: cdpEndpoint(given), source: `--cdp-endpoint ${maskEndpoint(given)}`, stop: async () => {} };
  const browser = new LocalChromium(headlessFor(options.headless === true));
  const unused = port === undefined ? '' : ` (--port ${port} has no effect: no internal gateway without --cdp-endpoint or --config)`;
  return {
    endpoint: directEndpoint(() => browser.wsUrl()),
    source: `a local Chromium${browser.headless ? ' (headless)' : ''}, started on first use${unused}`,
    stop: () => browser.stop(),
  };
}

/** What the forms of --cdp-endpoint are, for a usage error. */
const CDP_ENDPOINT_FORMS =
  "a browser's ws://host:port/devtools/browser/<id>, or http://host:port or ws://host:port of a browser started with --remote-debugging-port=<port>, or a gateway's or router's connect URL (ws(s)://host:port/v1/connect?token=…, or its http(s):// form)";

/** Refuses, before anything starts, what no gateway or browser could be at (a URL of another scheme, or no URL). */
function checkCdpEndpoint(value: string): string {
  try {
    connectUrl(value);
  } catch (error) {
    if (error instanceof CliError) throw new UsageError(`--cdp-endpoint: ${error.message}; give ${CDP_ENDPOINT_FORMS}`);
    throw error;
  }
  return value;
}

/** A browser reached directly: what only a gateway's connect can do (recording, traces, profiles) is refused in words a model can act on. */
function refuseGatewayOptions(options: ResolvedOptions): void {
  const asked = [options.record && 'record', options.trace && 'trace', options.profile && 'profile'].filter(Boolean);
  if (asked.length > 0)
    throw new AgentError(
      'invalid',
      `${asked.join(', ')} ${asked.length === 1 ? 'is' : 'are'} not available here: this MCP server drives a browser directly, with no gateway in between. Open the browser without ${asked.length === 1 ? 'it' : 'them'}.`,
    );
}

function directEndpoint(address: () => Promise<string>): AgentEndpoint {
  return {
    kind: 'browser',
    async connect(options: ResolvedOptions) {
      refuseGatewayOptions(options);
      return { url: await address() };
    },
  };
}

/**
 * --cdp-endpoint, told apart at each open as `gateway browse --endpoint` is (devtools-endpoint.ts),
 * so a browser started or restarted after this server is found. A connect URL opens a routed
 * session with what the agent asked for (recording, traces, a profile); a DevTools address, tabs
 * of the session's own in that browser.
 */
function cdpEndpoint(value: string): AgentEndpoint {
  let kind: AgentEndpoint['kind'] = 'browser';
  return {
    // What the latest open found: the session reads it once its connect has answered.
    get kind() {
      return kind;
    },
    async connect(options: ResolvedOptions) {
      const target = await browseTarget(value);
      kind = target.kind;
      if (target.kind === 'connect') {
        for (const [name, setting] of Object.entries(agentConnectParams(options))) target.url.searchParams.set(name, setting);
        return { url: target.url.href };
      }
      refuseGatewayOptions(options);
      return {
        url: await browserWebSocket(target.devtools, 'the user should start it with --remote-debugging-port, or give gateway mcp another --cdp-endpoint'),
      };
    },
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65_535) throw new UsageError(`--port must be a port number from 1 to 65535 (got ${JSON.stringify(value)})`);
  return port;
}
