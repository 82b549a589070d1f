// What the `gateway` command's tests share: the real launcher as a child process (runGateway for one
// command, as cli.test.ts and check.test.ts run it), and for the `gateway mcp` tests (mcp.test.ts,
// mcp-routed.test.ts) a scratch HOME and GW_DATA_DIR, the MCP SDK's own client over stdio, and the
// test site's form completed through the tools.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { eventually } from '../../e2e/support/connect';

export { completeForm, refOf } from '../../e2e/support/agent-form';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One command of the real launcher, with PATH and `env` only and no terminal (so no colours). */
export function runGateway(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const child = spawn(process.execPath, ['proxy/cli/gateway.mjs', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A scratch home and data directory, noted in `dirs` for the test's clean-up. */
export function scratch(dirs: string[]): Record<string, string> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gw-mcp-'));
  dirs.push(home);
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, GW_DATA_DIR: path.join(home, 'data') };
}

/** Polls until `check` holds, failing with `what` at the deadline. */
export async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  await eventually(async () => (await condition()) || null, timeoutMs, what);
}

export interface Agent {
  client: Client;
  pid: number;
  stderr(): string;
  /** Errors the client met reading stdout (a line that is not JSON-RPC is one). */
  errors: Error[];
  tool(name: string, args?: Record<string, unknown>): Promise<{ text: string; error: boolean }>;
}

export async function agent(args: string[], env: Record<string, string>): Promise<Agent> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['proxy/cli/gateway.mjs', 'mcp', ...args], cwd: ROOT, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr!.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'gateway-mcp-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return {
    client,
    pid: transport.pid!,
    stderr: () => stderr,
    errors,
    async tool(name, toolArgs = {}) {
      const result = (await client.callTool({ name, arguments: toolArgs })) as CallToolResult;
      return { text: textOf(result), error: result.isError === true };
    },
  };
}

export const textOf = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

interface Proc {
  pid: number;
  ppid: number;
  state: string;
  cmdline: string;
}

/** Every process, from /proc; zombies are marked by their state. */
export function processes(): Proc[] {
  const list: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      list.push({
        pid: Number(entry),
        state: fields[0]!,
        ppid: Number(fields[1]),
        cmdline: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' '),
      });
    } catch {
      // it ended while we looked
    }
  }
  return list;
}

/** The living processes below `pid` (children, grandchildren…). */
export function descendants(pid: number): Proc[] {
  const all = processes().filter((p) => p.state !== 'Z');
  const found: Proc[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const p of all.filter((q) => q.ppid === parent)) {
      found.push(p);
      queue.push(p.pid);
    }
  }
  return found;
}
