// An MCP server carrying every tool of the agent toolkit over one caller's browsers. The hosted
// /mcp, the gateway's /mcp and `gateway mcp` (stdio) each make one per MCP session: the SDK refuses
// to connect one server to a second transport, and a server per session keeps one client's state
// out of another's.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SessionSet } from '../agent/session-set';
import { agentTools, runTool, type ToolContext } from '../agent/tools';
import { MCP_INSTRUCTIONS, MCP_SERVER_NAME } from './instructions';

export function toolServer(browsers: SessionSet, version = process.env.npm_package_version ?? '0.1.0', instructions = MCP_INSTRUCTIONS): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { instructions });
  const ctx: ToolContext = { sessions: browsers };
  for (const tool of agentTools()) {
    server.registerTool(tool.name, { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations }, (args) =>
      runTool(tool, ctx, args),
    );
  }
  return server;
}
