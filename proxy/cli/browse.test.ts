// `gateway browse` as a user runs it: the real launcher in child processes (scratch HOME and
// GW_DATA_DIR, no terminal), a real daemon per session, one real headless Chromium and the test
// site shared by all tests. Waits poll with deadlines; nothing sleeps for a fixed time. The parser,
// the socket paths and the printed words without a browser: browse-args.test.ts.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { launchChromium, type Chromium } from '../../e2e/support/chromium';
import { eventually } from '../../e2e/support/connect';
import { startTestSite, type TestSite } from '../../e2e/support/test-site';
import { isRunning } from '../../scripts/lib/processes';
import { sessionFiles, socketDirs } from './browse-wire.mjs';
import type { Env } from './data-dir';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TOKEN = 'gw_relay_token_1234567890';

let browser: Chromium;
let site: TestSite;
const scratches: { home: string; env: Env }[] = [];

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
});

after(async () => {
  // Close whatever a failed test left running, then the browser (a daemon would also end with it).
  for (const { env } of scratches) {
    const listed = await gateway(['browse', 'sessions', '--json'], env);
    const sessions = listed.code === 0 ? (JSON.parse(listed.stdout).result.sessions as { session: string }[]) : [];
    await Promise.all(sessions.map((s) => gateway(['browse', 'close', '--session', s.session], env)));
  }
  await Promise.all([browser?.stop(), site?.close()]);
  for (const { home } of scratches) rmSync(home, { recursive: true, force: true });
});

function scratch(): { home: string; data: string; env: Env } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gw-browse-'));
  const data = path.join(home, 'data');
  const env = { HOME: home, GW_DATA_DIR: data };
  scratches.push({ home, env });
  return { home, data, env };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function gateway(args: string[], env: Env, cwd = ROOT): Promise<Run> {
  const child = spawn(process.execPath, [path.join(ROOT, 'proxy/cli/gateway.mjs'), ...args], {
    cwd,
    env: { PATH: process.env.PATH, ...env } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Runs a command that must succeed; its stdout. */
async function ok(args: string[], env: Env, cwd?: string): Promise<string> {
  const run = await gateway(args, env, cwd);
  assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** The ref of the first snapshot line that matches. */
function refOf(text: string, pattern: RegExp): string {
  const line = text.split('\n').find((l) => pattern.test(l.replace(/^[~+] /, '')));
  assert.ok(line, `no line matching ${pattern} in:\n${text}`);
  return /e\d+/.exec(line!)![0];
}

// A test here runs up to twenty commands, each a process of its own: 7 s alone, 31-43 s in full
// runs, over 60 s in a loaded partial run. Its bound is for a hang only. A single wait gives up
// well before it, naming what it waited for (a wait past its test's end kept the file running for
// minutes after its tests had timed out).
const COMMANDS = { timeout: 240_000 };

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 50_000): Promise<void> {
  await eventually(async () => (await condition()) || null, timeoutMs, what);
}

/** The daemon's pid, from the line its log starts with. */
function daemonPid(data: string, session = 'default'): number {
  const log = readFileSync(sessionFiles(data, session).log, 'utf8');
  return Number(/\(pid (\d+)\)/.exec(log)![1]);
}

/** The daemons of a session of a data directory that are running (Linux /proc; empty elsewhere). */
function daemonsOf(data: string, session: string): number[] {
  if (!existsSync('/proc/self/environ')) return [];
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        return argv.includes('browse-daemon') && argv[argv.indexOf('--session') + 1] === session && environ.includes(`GW_DATA_DIR=${data}`);
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function pageUrls(): Promise<string[]> {
  const targets = (await (await fetch(`${browser.httpUrl}/json/list`)).json()) as { type: string; url: string }[];
  return targets.filter((t) => t.type === 'page').map((t) => t.url);
}

test('a form through the command line: open, snapshot, fill, select, check, click, extract, screenshot, eval, --json, close', COMMANDS, async () => {
  const { home, data, env } = scratch();
  const opened = await ok(['browse', 'open', `${site.url}/agent/form`, '--endpoint', browser.wsUrl], env);
  assert.match(opened, /^Page: "Sign up" http:\/\/127\.0\.0\.1:\d+\/agent\/form/);
  const name = refOf(opened, /^e\d+ textbox "Full name"/);
  const email = refOf(opened, /^e\d+ textbox "Email"/);
  const plan = refOf(opened, /^e\d+ combobox "Plan"/);
  const news = refOf(opened, /^e\d+ checkbox "Send me news"/);
  const submit = refOf(opened, /^e\d+ button "Create account"/);

  // No endpoint is configured anywhere: the commands after the first use the session's open browser.
  const again = await gateway(['browse', 'snapshot', '--idle-minutes', '3'], env);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(refOf(again.stdout, /^e\d+ button "Create account"/), submit, 'the same element keeps its ref');
  assert.equal(again.stderr, 'note: --idle-minutes takes effect when a browser opens; this one keeps its 5 minutes\n');

  assert.match(await ok(['browse', 'fill', `@${name}`, 'Ada Lovelace'], env), new RegExp(`~ ${name} textbox "Full name" value="Ada Lovelace"`));
  assert.match(await ok(['browse', 'type', email, 'ada@example.com'], env), /typed into/);
  assert.match(await ok(['browse', 'select', `@${plan}`, 'Pro'], env), /selected "Pro"/);
  assert.match(await ok(['browse', 'check', `@${news}`], env), new RegExp(`~ ${news} checkbox "Send me news" checked`));
  const sent = await ok(['browse', 'click', `@${submit}`], env);
  assert.match(sent, /The page changed to a new document/);
  assert.match(sent, /Page: "Welcome"/);
  const text = await ok(['browse', 'extract', '--format', 'text'], env);
  assert.match(text, /Thanks, Ada Lovelace/);
  assert.match(text, /email=ada@example\.com plan=pro news=on/);

  // A screenshot is a JPEG file in the current directory; its path is printed.
  const shot = (await ok(['browse', 'screenshot'], env, home)).trim();
  assert.equal(path.dirname(shot), home);
  assert.match(path.basename(shot), /^screenshot-\d{8}-\d{6}-\d{3}\.jpg$/);
  assert.deepEqual([...readFileSync(shot).subarray(0, 3)], [0xff, 0xd8, 0xff]);
  const json = JSON.parse(await ok(['browse', 'screenshot', '--json', '--out', 'page.jpg'], env, home));
  assert.equal(json.ok, true);
  assert.equal(json.result.path, path.join(home, 'page.jpg'));
  assert.equal(json.result.bytes, statSync(json.result.path).size);
  assert.equal(json.result.image, undefined, 'the JSON names the file, it does not carry the image');
  assert.match(await ok(['browse', 'screenshot', '--changed'], env, home), /^Unchanged since the previous screenshot/);
  assert.equal(readdirSync(home).filter((f) => f.endsWith('.jpg')).length, 2);

  assert.equal(await ok(['browse', 'eval', 'document.title'], env), '"Welcome"\n');
  const evaluated = JSON.parse(await ok(['browse', 'eval', '({ n: [1, 2], path: location.pathname })', '--json'], env));
  assert.deepEqual(evaluated.result.value, { n: [1, 2], path: '/agent/done' });
  const snapshot = JSON.parse(await ok(['browse', '--json', 'snapshot'], env));
  assert.equal(snapshot.ok, true);
  assert.match(snapshot.result.text, /^Page: "Welcome"/);
  assert.match(snapshot.result.url, /\/agent\/done\?/);

  const listed = JSON.parse(await ok(['browse', 'sessions', '--json'], env)).result.sessions;
  assert.equal(listed.length, 1);
  assert.equal(listed[0].session, 'default');
  assert.equal(listed[0].endpoint, browser.wsUrl);
  assert.match(listed[0].url, /\/agent\/done\?/);
  const pid = listed[0].pid as number;
  assert.equal(pid, daemonPid(data));

  assert.equal(await ok(['browse', 'close'], env), 'Closed the browser of session "default".\n');
  const socket = sessionFiles(data, 'default').socket;
  await until('the daemon exits and its socket is gone', () => !isRunning(pid) && !existsSync(socket));
  await until('its tab is closed', async () => !(await pageUrls()).some((u) => u.includes('/agent/done')));
  assert.equal(await ok(['browse', 'close'], env), 'No browser is open in session "default".\n');
});

test(
  'two session names run two daemons with a tab each; commands started at once share one daemon; sessions lists them and drops stale sockets',
  COMMANDS,
  async () => {
    const { data, env } = scratch();
    const [alpha, beta] = await Promise.all([
      ok(['browse', 'open', `${site.url}/agent/form`, '--session', 'alpha'], { ...env, GW_ENDPOINT: browser.wsUrl }),
      ok(['browse', '--session=beta', 'open', `${site.url}/basic`, '--endpoint', browser.wsUrl], env),
    ]);
    assert.match(alpha, /Page: "Sign up"/);
    assert.match(beta, /Page: "Basic page"/);
    assert.equal(await ok(['browse', 'eval', 'location.pathname', '--session', 'alpha'], env), '"/agent/form"\n');
    assert.equal(await ok(['browse', 'eval', 'location.pathname', '--session', 'beta'], env), '"/basic"\n');
    const urls = await pageUrls();
    assert.ok(urls.some((u) => u.endsWith('/agent/form')) && urls.some((u) => u.endsWith('/basic')), urls.join(' '));

    // Three commands of a session that is not running yet, at once: one daemon serves them all.
    const runs = await Promise.all([1, 2, 3].map(() => gateway(['browse', 'snapshot', '--session', 'gamma', '--endpoint', browser.wsUrl], env)));
    for (const run of runs) assert.equal(run.code, 0, run.stderr);
    if (existsSync('/proc/self/environ'))
      await until('one daemon of gamma is left (the others found it listening and ended)', () => daemonsOf(data, 'gamma').length === 1);

    // A daemon killed outright leaves its socket: the next command starts a new daemon in its place.
    const killedPid = daemonPid(data, 'gamma');
    process.kill(killedPid, 'SIGKILL');
    await until('the killed daemon is gone', () => !isRunning(killedPid));
    assert.ok(lstatSync(sessionFiles(data, 'gamma').socket).isSocket(), 'its socket is left behind');
    assert.match(await ok(['browse', 'snapshot', '--session', 'gamma', '--endpoint', browser.wsUrl], env), /^Page: about:blank/);
    assert.notEqual(daemonPid(data, 'gamma'), killedPid);

    // A socket left by a process that was killed: listed nowhere, and removed.
    const stale = path.join(socketDirs(data)[0], 'stale.sock');
    const killed = spawn(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(stale)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    await new Promise((resolve) => killed.on('exit', resolve));
    assert.ok(lstatSync(stale).isSocket());

    const listed = JSON.parse(await ok(['browse', 'sessions', '--json'], env)).result.sessions as { session: string; pid: number; url: string }[];
    assert.deepEqual(
      listed.map((s) => s.session),
      ['alpha', 'beta', 'gamma'],
    );
    assert.equal(new Set(listed.map((s) => s.pid)).size, 3);
    assert.match(listed[0]!.url, /\/agent\/form$/);
    assert.match(listed[1]!.url, /\/basic$/);
    assert.equal(existsSync(stale), false, 'the stale socket is removed');
    const human = await ok(['browse', 'sessions'], env);
    assert.match(human, /^alpha {2}pid \d+ {2}ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/\S+ {2}\d\.\d min left {2}http:\/\/\S+\/agent\/form$/m);

    for (const session of ['alpha', 'beta', 'gamma']) await ok(['browse', 'close', '--session', session], env);
    await until('every daemon is gone', () => listed.every((s) => !isRunning(s.pid)));
    assert.equal(await ok(['browse', 'sessions'], env), 'No browse session is running.\n');
  },
);

test(
  "the socket folder is the user's alone: 0700, the socket out of reach of another user; a symbolic link or a wider mode there is refused",
  COMMANDS,
  async () => {
    const { data, env } = scratch();
    await ok(['browse', 'open', `${site.url}/basic`, '--endpoint', browser.wsUrl], env);
    const files = sessionFiles(data, 'default');
    assert.equal(files.dir, path.join(data, 'browse'));
    assert.equal(statSync(files.dir).mode & 0o777, 0o700);
    assert.equal(statSync(data).mode & 0o777, 0o700);
    assert.equal(statSync(files.socket).mode & 0o077, 0, 'no access for group or others on the socket');
    assert.equal(statSync(files.log).mode & 0o777, 0o600);
    if (process.getuid?.() === 0) {
      // Root can be another user for a moment: nobody cannot connect.
      const probe = spawn(
        process.execPath,
        ['-e', "require('net').connect(process.argv[1]).on('connect', () => console.log('connected')).on('error', (e) => console.log(e.code))", files.socket],
        { uid: 65534, gid: 65534 },
      );
      let said = '';
      probe.stdout.on('data', (chunk) => (said += chunk));
      await new Promise((resolve) => probe.on('exit', resolve));
      assert.equal(said.trim(), 'EACCES');
    }
    await ok(['browse', 'close'], env);

    // A symbolic link planted where the folder goes: refused, nothing written where it points.
    const planted = scratch();
    mkdirSync(planted.data, { mode: 0o700 });
    const elsewhere = path.join(planted.home, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, path.join(planted.data, 'browse'));
    const refused = await gateway(['browse', 'open', `${site.url}/basic`, '--endpoint', browser.wsUrl], planted.env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /browse is a symbolic link; refusing to use it/);
    assert.deepEqual(readdirSync(elsewhere), []);

    // A folder others may enter: refused, not silently used.
    const wide = scratch();
    mkdirSync(path.join(wide.data, 'browse'), { recursive: true });
    chmodSync(path.join(wide.data, 'browse'), 0o755);
    const open = await gateway(['browse', 'snapshot', '--endpoint', browser.wsUrl], wide.env);
    assert.equal(open.code, 1);
    assert.match(open.stderr, /is open to other users \(mode 0755\); it must be 0700/);
    assert.equal(existsSync(path.join(wide.data, 'browse', 'default.sock')), false);
  },
);

test(
  'idle close: after --idle-minutes without a command the browser and its daemon close; the next command says so and starts a new one',
  COMMANDS,
  async () => {
    const { data, env } = scratch();
    await ok(['browse', 'open', `${site.url}/agent/form`, '--endpoint', browser.wsUrl, '--idle-minutes', '0.02'], env);
    const pid = daemonPid(data);
    const socket = sessionFiles(data, 'default').socket;
    await until('the idle daemon exits and removes its socket', () => !isRunning(pid) && !existsSync(socket));
    await until('its tab is closed', async () => !(await pageUrls()).some((u) => u.endsWith('/agent/form')));

    const next = await gateway(['browse', 'snapshot', '--endpoint', browser.wsUrl], env);
    assert.equal(next.code, 0, next.stderr);
    assert.match(
      next.stderr,
      /^note: the previous browser of session "default" closed after 1 s without a command \(.+\); this command started a new one, and refs from before no longer work$/m,
    );
    assert.match(next.stdout, /^Page: about:blank/);
    assert.notEqual(daemonPid(data), pid);
    const later = await gateway(['browse', 'snapshot'], env);
    assert.equal(later.stderr, '', 'the note is said once');
    await ok(['browse', 'close'], env);
  },
);

test('failures exit 1 and usage errors 2, with the message on stderr', COMMANDS, async () => {
  const { env } = scratch();
  await ok(['browse', 'open', `${site.url}/agent/form`, '--endpoint', browser.wsUrl], env);

  const badRef = await gateway(['browse', 'click', '@e999'], env);
  assert.equal(badRef.code, 1);
  assert.match(
    badRef.stderr,
    /^error: 1\. click e999 failed: e999 was never handed out in this session; take a snapshot \(gateway browse snapshot\) and use its refs/,
  );
  assert.equal(badRef.stdout, '');
  const badJson = await gateway(['browse', 'click', 'e999', '--json'], env);
  assert.equal(badJson.code, 1);
  assert.match(JSON.parse(badJson.stdout).error, /never handed out/);
  assert.equal(JSON.parse(badJson.stdout).ok, false);

  const other = await gateway(['browse', 'open', `${site.url}/basic`, '--endpoint', 'http://127.0.0.1:1'], env);
  assert.equal(other.code, 1);
  assert.match(
    other.stderr,
    /browse session "default" is using ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/\S+, not ws:\/\/127\.0\.0\.1:1\/v1\/connect; close it first \(gateway browse close --session default\)/,
  );
  const waited = await gateway(['browse', 'wait', 'never there', '--timeout', '300'], env);
  assert.equal(waited.code, 1);
  assert.match(waited.stderr, /Not within 300 ms: the text "never there" is on the page/);

  // Commander answers these (the launcher's parser leaves them to it), each in a process of its own: run at once.
  const usage = [
    [['frob'], /unknown command 'frob'/],
    [['fill', '@e1'], /missing required argument 'text'/],
    [['click', 'e1', 'e2'], /too many arguments/],
    [['scroll', 'sideways'], /'sideways' is invalid for argument 'direction'\. Allowed choices are up, down/],
    [['snapshot', '--session', 'no good'], /'no good' is invalid\. use 1 to 64 letters/],
    [['snapshot', '--idle-minutes', 'soon'], /argument 'soon' is invalid/],
    [['tabs', 'select'], /tabs select needs the tab id/],
    [['wait'], /wait needs text, --selector or --url/],
  ] as const;
  const runs = await Promise.all(usage.map(([args]) => gateway(['browse', ...args], env)));
  for (const [i, [args, message]] of usage.entries()) {
    const run = runs[i]!;
    assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  }
  const help = await gateway(['browse', 'fill', '--help'], env);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: gateway browse fill @eN <text> \[options\]/);
  assert.match(help.stdout, /--session <name>/);
  await ok(['browse', 'close'], env);

  // Nowhere to open a browser: said at once.
  const none = scratch();
  const lost = await gateway(['browse', 'open', `${site.url}/basic`], none.env);
  assert.equal(lost.code, 1);
  assert.match(lost.stderr, /^error: not logged in \(no endpoint\): pass --endpoint <url>, set GW_ENDPOINT, or run gateway login/);
  assert.equal(existsSync(sessionFiles(none.data, 'default').log), false, 'no daemon was started to say it');
});

test(
  'a gateway base URL gets /v1/connect and the token (kind connect); the token is masked in sessions; another token is refused until close',
  COMMANDS,
  async () => {
    // A gateway as far as the browser is concerned: /v1/connect with the right ?token= relays to Chromium.
    const upgrades: string[] = [];
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    const relay = new WebSocketServer({ noServer: true });
    server.on('upgrade', (req: IncomingMessage, socket, head) => {
      const url = new URL(req.url ?? '/', 'http://x');
      upgrades.push(url.pathname);
      if (url.pathname !== '/v1/connect' || url.searchParams.get('token') !== TOKEN) {
        socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 12\r\n\r\nwrong token\n');
        return;
      }
      relay.handleUpgrade(req, socket, head, (client) => {
        const upstream = new WebSocket(browser.wsUrl, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
        // CDP is text frames; Chromium drops a client that sends binary ones.
        const queued: string[] = [];
        upstream.on('open', () => queued.splice(0).forEach((m) => upstream.send(m)));
        client.on('message', (m) => (upstream.readyState === WebSocket.OPEN ? upstream.send(m.toString()) : queued.push(m.toString())));
        upstream.on('message', (m) => client.send(m.toString()));
        client.on('close', () => upstream.close());
        upstream.on('close', () => client.close());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { env } = scratch();
      const opened = await gateway(['browse', 'open', `${site.url}/basic`], { ...env, GW_ENDPOINT: base, GW_TOKEN: TOKEN });
      assert.equal(opened.code, 0, opened.stderr);
      assert.match(opened.stdout, /Page: "Basic page"/);
      assert.deepEqual(upgrades, ['/v1/connect']);
      const listed = JSON.parse(await ok(['browse', 'sessions', '--json'], env)).result.sessions;
      assert.equal(listed[0].kind, 'connect');
      assert.match(listed[0].endpoint, /^ws:\/\/127\.0\.0\.1:\d+\/v1\/connect\?token=gw_r…90$/);
      assert.doesNotMatch(JSON.stringify(listed), new RegExp(TOKEN));
      const refused = await gateway(['browse', 'snapshot', '--token', 'another-token-123'], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /was opened with another token; close it first/);
      await ok(['browse', 'close'], env);

      const wrong = await gateway(['browse', 'open', `${site.url}/basic`, '--endpoint', `${base}/v1/connect`, '--token', 'wrong-token-0000'], scratch().env);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /no browser could be opened: 401 wrong token/);
    } finally {
      relay.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  },
);
