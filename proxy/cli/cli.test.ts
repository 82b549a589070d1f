// The gateway command run as a user runs it: the real launcher in a child process, with a scratch
// HOME and GW_DATA_DIR, no terminal (so no colours), against a real WebSocket server on loopback
// that plays a gateway's /v1/connect (101 for the right token, 401 otherwise).
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import http from 'node:http';
import { WebSocketServer } from 'ws';
import type { Env } from './data-dir';
import { connectUrl, maskToken, resolveCredentials } from './credentials';
import { probeEndpoint } from './reachability';
import { ROOT, runGateway as gateway } from './testing';

const TOKEN = 'gw_secret_token_1234567890';
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let server: http.Server;
let sockets: WebSocketServer;
let endpoint: string;
const paths: string[] = [];
/** How many WebSockets the endpoint accepted: login and whoami must not open browser sessions. */
let upgrades = 0;

before(async () => {
  // A gateway as far as these commands see it: GET /v1/status with a bearer token, and a browser's
  // own /devtools/ WebSocket.
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/v1/status') return res.writeHead(404).end();
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return res.writeHead(401).end();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"providers":[]}');
  });
  sockets = new WebSocketServer({ server, verifyClient: ({ req }, done) => done(/^\/devtools\/browser\//.test(req.url ?? ''), 404) });
  sockets.on('connection', () => upgrades++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  sockets.close();
  await new Promise((resolve) => server.close(resolve));
  for (const dir of paths) rmSync(dir, { recursive: true, force: true });
});

/** A scratch home with a data directory inside it. */
function scratch(): { home: string; data: string; env: Env } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'gw-cli-'));
  paths.push(home);
  const data = path.join(home, 'data');
  return { home, data, env: { HOME: home, GW_DATA_DIR: data } };
}

const mode = (file: string) => statSync(file).mode & 0o777;

test('help, version and usage errors', async () => {
  for (const args of [['--help'], ['help'], ['-h']]) {
    const run = await gateway(args);
    assert.equal(run.code, 0, args.join(' '));
    for (const command of ['serve', 'check', 'login', 'logout', 'whoami', 'skills', 'mcp', 'browse', 'version', 'help'])
      assert.match(run.stdout, new RegExp(`\\n  ${command}\\b`));
    assert.doesNotMatch(run.stdout, /\n {2}(browse-daemon)\b/, 'browse-daemon is internal');
    assert.doesNotMatch(run.stdout, /\x1b\[/, 'no colours without a terminal');
  }
  for (const command of ['serve', 'login', 'logout', 'whoami', 'skills', 'version']) {
    const viaHelp = await gateway(['help', command]);
    const viaFlag = await gateway([command, '--help']);
    assert.equal(viaHelp.code, 0);
    assert.equal(viaFlag.code, 0);
    assert.match(viaHelp.stdout, new RegExp(`^Usage: gateway ${command}`));
    assert.equal(viaFlag.stdout, viaHelp.stdout);
  }
  assert.deepEqual(await gateway(['version']), { code: 0, stdout: `${VERSION}\n`, stderr: '' });
  assert.deepEqual(await gateway(['--version']), { code: 0, stdout: `${VERSION}\n`, stderr: '' });

  for (const [args, message] of [
    [['frob'], /unknown command 'frob'/],
    [['help', 'frob'], /unknown command 'frob'/],
    [['login', '--bogus'], /unknown option '--bogus'/],
    [['logout', 'extra'], /too many arguments/],
    [['serve', '--port', 'abc'], /--port must be a port number/],
  ] as const) {
    const run = await gateway([...args]);
    assert.equal(run.code, 2, args.join(' '));
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  }
});

test('login checks the endpoint, then saves it readable by the user alone', async () => {
  const { data, env } = scratch();
  const run = await gateway(['login', '--endpoint', endpoint, '--token', TOKEN], env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Logged in/);
  assert.doesNotMatch(run.stdout, new RegExp(TOKEN), 'the token is not printed');
  const file = path.join(data, 'credentials.json');
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(saved.endpoint, endpoint);
  assert.equal(saved.token, TOKEN);
  assert.ok(!Number.isNaN(Date.parse(saved.savedAt)));
  assert.equal(mode(data), 0o700);
  assert.equal(mode(file), 0o600);
});

test('login corrects the modes of an existing directory and file', async () => {
  const { data, env } = scratch();
  mkdirSync(data, { mode: 0o755 });
  writeFileSync(path.join(data, 'credentials.json'), '{}', { mode: 0o644 });
  const run = await gateway(['login', '--endpoint', `${endpoint}/v1/connect`, '--token', TOKEN], env);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(mode(data), 0o700);
  assert.equal(mode(path.join(data, 'credentials.json')), 0o600);
});

test('login refuses to write through a symbolic link', async () => {
  const { home, data, env } = scratch();
  mkdirSync(data, { mode: 0o700 });
  const target = path.join(home, 'elsewhere.json');
  writeFileSync(target, 'untouched');
  symlinkSync(target, path.join(data, 'credentials.json'));
  const run = await gateway(['login', '--endpoint', endpoint, '--token', TOKEN], env);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /symbolic link/);
  assert.equal(readFileSync(target, 'utf8'), 'untouched');
  assert.ok(lstatSync(path.join(data, 'credentials.json')).isSymbolicLink());
});

test('login with a wrong token or an address that does not answer saves nothing', async () => {
  const { data, env } = scratch();
  const wrong = await gateway(['login', '--endpoint', endpoint, '--token', 'wrong-token-000000'], env);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /refused the token \(401\)/);
  assert.doesNotMatch(wrong.stderr, /wrong-token/, 'the token is not echoed');

  const closed = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => closed.once('listening', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const refused = await gateway(['login', '--endpoint', `http://127.0.0.1:${port}`, '--token', TOKEN], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /connection refused/);

  const missing = await gateway(['login'], env);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--endpoint/);

  assert.equal(existsSync(path.join(data, 'credentials.json')), false);
});

test('whoami masks the token, names the sources, reports reachability; env wins over the saved login', async () => {
  const { env } = scratch();
  const none = await gateway(['whoami'], env);
  assert.equal(none.code, 1);
  assert.match(none.stderr, /gateway login/);

  assert.equal((await gateway(['login', '--endpoint', endpoint, '--token', TOKEN], env)).code, 0);
  const saved = await gateway(['whoami'], env);
  assert.equal(saved.code, 0, saved.stderr);
  assert.match(saved.stdout, /endpoint +ws:\/\/127\.0\.0\.1:\d+\/v1\/connect \(from the saved login/);
  assert.match(saved.stdout, new RegExp(`token +${maskToken(TOKEN)} \\(from the saved login`));
  assert.ok(saved.stdout.includes('gw_s…90'));
  assert.doesNotMatch(saved.stdout, new RegExp(TOKEN));
  assert.match(saved.stdout, /reachable +yes, \d+ ms/);

  assert.equal(upgrades, 0, 'login and whoami ask GET /v1/status: no browser session is opened to look');
  // A browser's own address is checked by opening (and closing) its WebSocket.
  const devtools = await gateway(['whoami'], { ...env, GW_ENDPOINT: `${endpoint.replace('http', 'ws')}/devtools/browser/abc` });
  assert.equal(devtools.code, 0, devtools.stderr);
  assert.match(devtools.stdout, /reachable +yes, \d+ ms/);
  assert.equal(upgrades, 1);

  // A wrong token from the environment beats the saved right one, and the check then fails.
  const overridden = await gateway(['whoami'], { ...env, GW_TOKEN: 'env-token-abcdef' });
  assert.equal(overridden.code, 1);
  assert.match(overridden.stdout, /token +env-…ef \(from the environment\)/);
  assert.match(overridden.stdout, /reachable +no: the endpoint refused the token \(401\)/);
});

test('an endpoint that accepts the connection but never answers times out', async () => {
  const held: net.Socket[] = [];
  const silent = net.createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const probe = await probeEndpoint(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, TOKEN, 300);
  assert.deepEqual(probe, { ok: false, reason: `no answer from 127.0.0.1:${(silent.address() as AddressInfo).port} within 300 ms` });
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

test('logout deletes the saved login, and says when there is none', async () => {
  const { data, env } = scratch();
  assert.equal((await gateway(['login', '--endpoint', endpoint, '--token', TOKEN], env)).code, 0);
  const first = await gateway(['logout'], env);
  assert.equal(first.code, 0);
  assert.match(first.stdout, /Logged out/);
  assert.equal(existsSync(path.join(data, 'credentials.json')), false);
  const second = await gateway(['logout'], env);
  assert.equal(second.code, 0);
  assert.match(second.stdout, /Not logged in/);
});

test('skills writes SKILL.md into --dir, into the installed agent tools, or prints it', async () => {
  const { home, env } = scratch();
  const dir = path.join(home, 'my-skills');
  const run = await gateway(['skills', '--dir', dir], env);
  assert.equal(run.code, 0, run.stderr);
  const text = readFileSync(path.join(dir, 'SKILL.md'), 'utf8');
  assert.match(text, /^---\nname: browser-gateway\ndescription: .+\n---\n/);
  for (const verb of ['open <url>', 'snapshot', 'click @eN', 'fill @eN <text>', 'screenshot [@eN]', 'close', '--session <name>', '--idle-minutes <n>'])
    assert.ok(text.includes(verb), verb);
  assert.match(text, /stale/);

  const printed = await gateway(['skills'], env);
  assert.equal(printed.code, 0);
  assert.equal(printed.stdout, text, 'with no agent tool installed it prints the file');

  mkdirSync(path.join(home, '.claude'));
  const installed = await gateway(['skills'], env);
  assert.equal(installed.code, 0);
  assert.equal(readFileSync(path.join(home, '.claude/skills/browser-gateway/SKILL.md'), 'utf8'), text);
  assert.equal(existsSync(path.join(home, '.codex')), false, 'no folder is created for a tool that is not installed');
});

test('the endpoint becomes a connect URL; flag, then environment, then saved login', () => {
  assert.equal(connectUrl('https://gw.example.com').href, 'wss://gw.example.com/v1/connect');
  assert.equal(connectUrl('http://localhost:9500/', 't').href, 'ws://localhost:9500/v1/connect?token=t');
  assert.equal(connectUrl('ws://h/v1/connect?provider=a', 't').href, 'ws://h/v1/connect?provider=a&token=t');
  assert.equal(connectUrl('ws://127.0.0.1:9222/devtools/browser/abc').href, 'ws://127.0.0.1:9222/devtools/browser/abc');
  assert.throws(() => connectUrl('ftp://h'), /not an http/);
  assert.equal(maskToken('short'), '*****');

  const { data, env } = scratch();
  mkdirSync(data);
  writeFileSync(path.join(data, 'credentials.json'), JSON.stringify({ endpoint: 'http://saved', token: 'saved-token', savedAt: '2025-01-01T00:00:00Z' }));
  const fromSaved = resolveCredentials({}, env);
  assert.deepEqual(
    [fromSaved.endpoint, fromSaved.token],
    [
      { value: 'http://saved', source: 'saved' },
      { value: 'saved-token', source: 'saved' },
    ],
  );
  const fromEnv = resolveCredentials({}, { ...env, GW_ENDPOINT: 'http://env', GW_TOKEN: 'env-token' });
  assert.deepEqual([fromEnv.endpoint?.source, fromEnv.token?.source], ['env', 'env']);
  const fromFlag = resolveCredentials({ endpoint: 'http://flag', token: 'flag-token' }, { ...env, GW_ENDPOINT: 'http://env' });
  assert.deepEqual([fromFlag.endpoint?.value, fromFlag.token?.value], ['http://flag', 'flag-token']);
});
