// `gateway mcp` run as an agent tool runs it: the real launcher as a child process, with a scratch
// HOME, GW_DATA_DIR and TMPDIR, spoken to over stdio by the MCP SDK's own client, against a real
// Chromium and a local site. A browser of the user's own (--cdp-endpoint) keeps its tabs; a gateway's
// connect URL (--cdp-endpoint too) routes every session through that gateway; the local Chromium
// starts only when a tool needs it and leaves no process or directory behind; stdout carries
// JSON-RPC and nothing else; --port without --cdp-endpoint or --config starts no gateway; options
// that are not understood stop it with exit code 2. Through a gateway, the internal one included:
// mcp-routed.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { JSONRPCMessageSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { startTestSite, type TestSite } from '../../e2e/support/test-site';
import { agentTools } from '../agent/tools';
import { SELF_HOSTED_MCP_INSTRUCTIONS, MCP_SERVER_NAME } from '../mcp/instructions';
import { freePort } from '../../scripts/lib/ports';
import { agent, completeForm, descendants, processes, ROOT, scratch as scratchOf, textOf, until } from './testing';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SLOW = { timeout: 90_000 };

let browser: Chromium;
let site: TestSite;
const paths: string[] = [];

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
  for (const dir of paths) rmSync(dir, { recursive: true, force: true });
});

const scratch = () => scratchOf(paths);

/** A scratch home and TMPDIR for the local Chromium's directory; `long`, as long as macOS's per-user one. */
function localScratch(long = false): { tmp: string; env: Record<string, string> } {
  const env = scratch();
  const tmp = long ? path.join(env.HOME!, 'var', 'folders', 'xy', 'abcdefghijklmnopqrstuvwx0000gn', 'T') : path.join(env.HOME!, 'tmp');
  mkdirSync(tmp, { recursive: true });
  return { tmp, env: { ...env, TMPDIR: tmp, CHROMIUM_PATH: CHROMIUM } };
}

/** A process's environment, from /proc. */
const envOf = (pid: number) =>
  Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]),
  );

/** What is in TMPDIR besides tsx's compile cache. */
const tmpEntries = (tmp: string) => readdirSync(tmp).filter((name) => !name.startsWith('tsx-'));

/** The page tabs of the test's browser, by id. */
async function pageIds(): Promise<string[]> {
  const targets = (await (await fetch(`${browser.httpUrl}/json/list`)).json()) as { id: string; type: string }[];
  return targets
    .filter((t) => t.type === 'page')
    .map((t) => t.id)
    .sort();
}

test("--cdp-endpoint: the toolkit's tools and instructions; a form completed in the user's browser, whose own tab stays open", SLOW, async () => {
  // The user's own tab, opened before the agent arrives.
  const userTab = (await (await fetch(`${browser.httpUrl}/json/new?${site.url}/agent/landing`, { method: 'PUT' })).json()) as { id: string };
  const before = await pageIds();
  assert.ok(before.includes(userTab.id));

  const env = scratch();
  // The browser's DevTools HTTP address, resolved to its WebSocket through /json/version.
  const a = await agent(['--cdp-endpoint', browser.httpUrl], env);
  try {
    assert.equal(a.client.getServerVersion()?.name, MCP_SERVER_NAME);
    assert.equal(a.client.getInstructions(), SELF_HOSTED_MCP_INSTRUCTIONS);
    const { tools } = await a.client.listTools();
    const expected = agentTools();
    assert.equal(tools.length, 10);
    assert.deepEqual(tools.map((t) => t.name).sort(), expected.map((t) => t.name).sort());
    for (const tool of expected) {
      const listed = tools.find((t) => t.name === tool.name)!;
      assert.match(listed.name, /^browser_/);
      assert.deepEqual(listed.annotations, tool.annotations);
      assert.equal(listed.description, tool.description);
    }

    const refused = await a.tool('browser_session', { action: 'open', record: true });
    assert.equal(refused.error, true);
    assert.match(refused.text, /record is not available here/);

    const opened = await a.tool('browser_session', { action: 'open' });
    assert.equal(opened.error, false, opened.text);
    await completeForm(a, site.url);
    // The session sees its own tab only, never the user's.
    const tabs = await a.tool('browser_tabs', { action: 'list' });
    assert.equal(tabs.text.trim().split('\n').length, 1, tabs.text);
    assert.doesNotMatch(tabs.text, new RegExp(userTab.id));

    const closed = await a.tool('browser_session', { action: 'close' });
    assert.match(closed.text, /Closed browser br_/);
    // The session's tab is gone; the user's tabs are all still there.
    await until("the session's tab closed", async () => (await pageIds()).join() === before.join());
    assert.deepEqual(a.errors, []);
  } finally {
    await a.client.close();
  }
  assert.ok((await pageIds()).includes(userTab.id), "the user's tab is still open");
});

test(
  'the local Chromium: none at the handshake, started by the first tool that needs it, gone with its directories when the client closes (a TMPDIR as long as macOS gives)',
  SLOW,
  async () => {
    const { tmp, env } = localScratch(true);
    const a = await agent(['--headless'], env);
    const chromiums = () => descendants(a.pid).filter((p) => p.cmdline.includes(`--user-data-dir=${tmp}`));
    let seen: number[] = [];
    let chromiumTmp = '';
    try {
      // Initialized and listing tools, with no browser started.
      assert.equal((await a.client.listTools()).tools.length, 10);
      assert.deepEqual(
        descendants(a.pid).filter((p) => /chrom/i.test(p.cmdline)),
        [],
      );
      assert.deepEqual(tmpEntries(tmp), []);
      assert.doesNotMatch(a.stderr(), /starting Chromium/);

      const opened = await a.tool('browser_session', { action: 'open' });
      assert.equal(opened.error, false, opened.text);
      await until('the progress line on stderr', () => a.stderr().includes('starting Chromium (headless)'));
      await completeForm(a, site.url);
      seen = chromiums().map((p) => p.pid);
      assert.ok(seen.length > 0, 'the browser runs under the MCP server');
      assert.ok(chromiums().some((p) => p.cmdline.includes('--headless')));
      assert.equal(tmpEntries(tmp).length, 1);
      assert.match(tmpEntries(tmp)[0]!, /^gateway-mcp-chromium-/);
      // Its own TMPDIR, for its singleton socket, is short: under /tmp.
      chromiumTmp = envOf(seen[0]!).TMPDIR ?? '';
      assert.match(chromiumTmp, /^\/tmp\/gateway-mcp-tmp-/);
      assert.deepEqual(a.errors, []);
    } finally {
      // Ends stdin, as MCP clients do to stop a server.
      await a.client.close();
    }
    const live = () => processes().filter((p) => p.state !== 'Z');
    await until('the MCP server exited', () => !live().some((p) => p.pid === a.pid));
    await until('no Chromium process left', () => !live().some((p) => seen.includes(p.pid) || p.cmdline.includes(tmp)));
    await until('its temporary directories removed', () => tmpEntries(tmp).length === 0 && !existsSync(chromiumTmp));
    assert.match(a.stderr(), /stopping \(stdin closed\)/);
  },
);

test('--port without --cdp-endpoint or --config: accepted, and the local Chromium is used directly, with nothing on that port', SLOW, async () => {
  const { env } = localScratch();
  const port = await freePort();
  const a = await agent(['--headless', '--port', String(port)], env);
  try {
    const line = `browsers: a local Chromium (headless), started on first use (--port ${port} has no effect: no internal gateway without --cdp-endpoint or --config)`;
    await until('the line once it serves, saying so', () => a.stderr().includes(line));
    const opened = await a.tool('browser_session', { action: 'open' });
    assert.equal(opened.error, false, opened.text);
    assert.match((await a.tool('browser_navigate', { url: `${site.url}/agent/form` })).text, /Page: "Sign up"/);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/v1/status`), 'nothing listens on --port');
    assert.deepEqual(a.errors, []);
  } finally {
    await a.client.close();
  }
});

/** The server spawned by hand: every line of its stdout kept, requests matched to answers by id. */
function rawServer(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['proxy/cli/gateway.mjs', 'mcp', ...args], {
    cwd: ROOT,
    env: env as unknown as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  let nextId = 1;
  const answers = new Map<number, (message: any) => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      try {
        const message = JSON.parse(line);
        answers.get(message.id)?.(message);
      } catch {
        // kept in `lines`, where the test finds it
      }
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const request = (method: string, params: Record<string, unknown> = {}): Promise<any> => {
    const id = nextId++;
    const answer = new Promise((resolve) => answers.set(id, resolve));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answer;
  };
  const notify = (method: string) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  const call = async (name: string, args: Record<string, unknown> = {}) => (await request('tools/call', { name, arguments: args })).result as CallToolResult;
  const initialize = async () => {
    const answer = await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    notify('notifications/initialized');
    return answer;
  };
  return { child, lines, partial: () => partial, stderr: () => stderr, exited, request, call, initialize };
}

test('stdout carries JSON-RPC and nothing else; closing stdin stops the server with exit code 0', SLOW, async () => {
  const server = rawServer(['--cdp-endpoint', browser.wsUrl], scratch());
  try {
    assert.equal((await server.initialize()).result.instructions, SELF_HOSTED_MCP_INSTRUCTIONS);
    assert.equal((await server.request('tools/list')).result.tools.length, 10);
    assert.equal((await server.call('browser_session', { action: 'open' })).isError, undefined);
    assert.match(textOf(await server.call('browser_navigate', { url: `${site.url}/agent/form` })), /Page: "Sign up"/);
    const stale = await server.call('browser_act', { steps: [{ action: 'click', ref: 'e999' }] });
    assert.equal(stale.isError, true);
    assert.match(textOf(await server.call('browser_frob')), /Tool browser_frob not found/);
    assert.equal((await server.request('frob/frob')).error.code, -32601, 'an unknown method is a JSON-RPC error');
    assert.match(textOf(await server.call('browser_session', { action: 'close' })), /Closed browser/);
    server.child.stdin.end();
    assert.deepEqual(await server.exited, { code: 0, signal: null });
  } finally {
    server.child.kill('SIGKILL');
  }
  assert.ok(server.lines.length >= 7, server.lines.join('\n'));
  for (const line of server.lines) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      assert.fail(`not JSON on stdout: ${line}`);
    }
    assert.ok(JSONRPCMessageSchema.safeParse(json).success, `not a JSON-RPC message on stdout: ${line}`);
  }
  assert.equal(server.partial(), '', 'nothing left unterminated');
  assert.match(server.stderr(), /gateway mcp: serving the browser tools on stdio; browsers: --cdp-endpoint ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
  assert.match(server.stderr(), /stopping \(stdin closed\)/);
});

test('SIGTERM stops the server and its local Chromium, leaving no directory behind', SLOW, async () => {
  const { tmp, env } = localScratch();
  const server = rawServer(['--headless'], env);
  try {
    await server.initialize();
    assert.equal((await server.call('browser_session', { action: 'open' })).isError, undefined);
    assert.ok(descendants(server.child.pid!).some((p) => p.cmdline.includes(`--user-data-dir=${tmp}`)));
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exited, { code: 0, signal: null });
  } finally {
    server.child.kill('SIGKILL');
  }
  assert.match(server.stderr(), /stopping \(SIGTERM\)/);
  await until('no Chromium process left', () => !processes().some((p) => p.state !== 'Z' && p.cmdline.includes(tmp)));
  assert.deepEqual(tmpEntries(tmp), []);
});

test('no browser to start: the tool says to set CHROMIUM_PATH', SLOW, async () => {
  const a = await agent(['--headless'], { ...scratch(), CHROMIUM_PATH: '/nonexistent/chromium' });
  try {
    const opened = await a.tool('browser_session', { action: 'open' });
    assert.equal(opened.error, true);
    assert.match(opened.text, /CHROMIUM_PATH \(\/nonexistent\/chromium\)/);
    await until("the reason in the server's log", () => a.stderr().includes('no browser at CHROMIUM_PATH'));
  } finally {
    await a.client.close();
  }
});

/** Runs the command to its end. */
function gateway(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['proxy/cli/gateway.mjs', ...args], {
    cwd: ROOT,
    env: scratch() as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

test('mcp --help lists the options; options it cannot use stop it before it serves', async () => {
  const help = await gateway(['mcp', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: gateway mcp \[options\]/);
  // The options as docs/gateway.md lists them, in its order and with its words.
  const at = ['--cdp-endpoint <url>', '--config <path>', '--headless', '--port <number>'].map((option) => help.stdout.indexOf(option));
  assert.ok(
    at.every((where, i) => where > 0 && (i === 0 || where > at[i - 1]!)),
    help.stdout,
  );
  const words = help.stdout.replace(/\s+/g, ' ');
  assert.match(words, /--cdp-endpoint <url> use as the only provider \(default: launch a local Chrome or Chromium on first use\)/);
  assert.match(words, /--port <number> internal gateway, default 9500/);
  assert.deepEqual(await gateway(['help', 'mcp']), help);

  const cases = [
    [
      ['--cdp-endpoint', 'not-a-url'],
      2,
      /--cdp-endpoint: "not-a-url" is not a URL .*; give a browser's ws:\/\/host:port\/devtools\/browser\/<id>, .* or a gateway's or router's connect URL/,
    ],
    [['--cdp-endpoint', 'ftp://127.0.0.1:9222'], 2, /--cdp-endpoint: "ftp:\/\/127\.0\.0\.1:9222" is not an http\(s\) or ws\(s\) URL; give /],
    [['--cdp-endpoint', 'ws://127.0.0.1:9222/devtools/browser/x', '--headless'], 2, /'--headless' cannot be used with option '--cdp-endpoint <url>'/],
    [['--port', '70000', '--config', 'gateway.yml'], 2, /--port must be a port number from 1 to 65535/],
    [
      ['--port', '9501', '--cdp-endpoint', 'http://127.0.0.1:9222/v1/connect?token=gw_secret_token'],
      2,
      /^error: --cdp-endpoint http:\/\/127\.0\.0\.1:9222\/v1\/connect\?token=gw_s…en cannot be the internal gateway's provider \(with --config or --port\): the gateway would ask it for \/json\/version, which a WebSocket address does not answer \(give its ws:\/\/ form\); give a ws\(s\):\/\/ address, dialled as given \(.*\), or http\(s\):\/\/host:port of a browser started with --remote-debugging-port=<port> .*\n$/,
    ],
    [
      ['--config', 'gateway.yml', '--cdp-endpoint', 'http://127.0.0.1:9222/devtools/browser/x'],
      2,
      /cannot be the internal gateway's provider \(with --config or --port\): the gateway would ask it for \/json\/version/,
    ],
    [
      ['--port', '9501', '--cdp-endpoint', 'ws://127.0.0.1:9222'],
      2,
      /--cdp-endpoint ws:\/\/127\.0\.0\.1:9222\/ cannot be the internal gateway's provider .*neither a browser nor a gateway has a WebSocket there \(for a browser's --remote-debugging-port, give http:\/\/host:port\)/,
    ],
    [['--config', 'no-such-gateway.yml'], 1, /no-such-gateway\.yml: cannot be read: no such file/],
  ] as const;
  const runs = await Promise.all(cases.map(([args]) => gateway(['mcp', ...args])));
  cases.forEach(([args, code, message], i) => {
    const run = runs[i]!;
    assert.equal(run.code, code, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  });
});
