// `gateway mcp`: the agent toolkit (proxy/agent/) as an MCP server on stdin/stdout, for agent tools
// that start their MCP servers as child processes (Claude Desktop, Claude Code, Cursor). The tools
// and instructions are the hosted /mcp's (proxy/mcp/tool-server.ts). Its browsers come from
// --cdp-endpoint (a browser the user runs), --config (a gateway.yml's providers), or else a local
// Chromium started on first use (local-chromium.ts), so the handshake never waits for a browser.
// stdout carries JSON-RPC and nothing else: messages go to stderr, and so do logs (lib/log.ts).
//
// Both kinds of browser here are endpoint kind `browser`: the user's own browser must keep its
// tabs, and the local one serves every session of this server at once, so each session works in
// tabs it opened and closes them when it ends (kind `connect` would hand every session the same
// first tab, and end nothing when one closes).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { SessionSet } from '../agent/session-set';
import { AgentError, type AgentEndpoint, type ResolvedOptions } from '../agent/types';
import { toolServer } from '../mcp/tool-server';
import { SELF_HOSTED_MCP_INSTRUCTIONS } from '../mcp/instructions';
import { headlessFor, LocalChromium } from './local-chromium';
import { browserWebSocket, httpOrigin } from './devtools-endpoint';
import { endpointFromConfig } from './mcp-config-endpoint';
import { err, UsageError } from './output';

export interface McpOptions {
  cdpEndpoint?: string;
  headless?: boolean;
  config?: string;
  port?: string;
}

export async function mcp(options: McpOptions, version: string): Promise<void> {
  const devtools = options.cdpEndpoint === undefined ? undefined : parseCdpEndpoint(options.cdpEndpoint);
  const port = options.port === undefined ? undefined : parsePort(options.port);
  if (port !== undefined && options.config === undefined) throw new UsageError('--port goes with --config (the gateway that routes to its providers)');

  let endpoint: AgentEndpoint;
  let local: LocalChromium | null = null;
  let gateway: { stop: () => Promise<void> } | null = null;
  let source: string;
  if (options.config !== undefined) {
    const routed = await endpointFromConfig(options.config, port);
    gateway = routed;
    endpoint = routed.endpoint;
    source = `the providers of ${options.config}, through a gateway at ${routed.url}`;
  } else if (devtools) {
    endpoint = directEndpoint(() => browserWebSocket(devtools, 'the user should start it with --remote-debugging-port, or give gateway mcp another --cdp-endpoint'));
    source = `the browser at ${devtools.origin}`;
  } else {
    const browser = new LocalChromium(headlessFor(options.headless === true));
    local = browser;
    endpoint = directEndpoint(() => browser.wsUrl());
    source = `a local Chromium${browser.headless ? ' (headless)' : ''}, started on first use`;
  }

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
  await local?.stop();
  await gateway?.stop();
  await server.close();
  process.stdin.destroy();
}

/** A browser reached directly: what only a gateway's connect can do (recording, traces, profiles) is refused in words a model can act on. */
function directEndpoint(address: () => Promise<string>): AgentEndpoint {
  return {
    kind: 'browser',
    async connect(options: ResolvedOptions) {
      const asked = [options.record && 'record', options.trace && 'trace', options.profile && 'profile'].filter(Boolean);
      if (asked.length > 0) throw new AgentError('invalid', `${asked.join(', ')} ${asked.length === 1 ? 'is' : 'are'} not available here: this MCP server drives a browser directly, with no gateway in between. Open the browser without ${asked.length === 1 ? 'it' : 'them'}.`);
      return { url: await address() };
    },
  };
}

/**
 * --cdp-endpoint: a browser's own WebSocket address (ws://host:port/devtools/browser/<id>, used as
 * it is) or its DevTools HTTP address (http://host:port, asked for the WebSocket at each open, so a
 * browser restarted since still works).
 */
export function parseCdpEndpoint(value: string): URL {
  const expected = 'give a browser\'s ws://host:port/devtools/browser/<id> address, or its DevTools address http://host:port or ws://host:port (a browser started with --remote-debugging-port=<port>)';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--cdp-endpoint ${JSON.stringify(value)} is not a URL: ${expected}`);
  }
  if ((url.protocol === 'ws:' || url.protocol === 'wss:') && url.pathname.startsWith('/devtools/browser/')) return url;
  if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  // ws://host:port, as Puppeteer's browserURL users write it: the DevTools HTTP address of that port.
  if ((url.protocol === 'ws:' || url.protocol === 'wss:') && url.pathname.replace(/\/+$/, '') === '') return httpOrigin(url);
  throw new UsageError(`--cdp-endpoint ${JSON.stringify(value)} is not a browser's DevTools address: ${expected}`);
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port < 1 || port > 65_535) throw new UsageError(`--port must be a port number from 1 to 65535 (got ${JSON.stringify(value)})`);
  return port;
}
