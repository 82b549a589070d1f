// Tenant isolation (issue 10): a page in a pool browser cannot read the host's files however it
// navigates, the browser's processes cannot even see them (bwrap, a uid per browser, no inherited
// environment), pages reach the network only through the egress proxy, every endpoint wants the
// pool token, and a snapshot goes only to the session whose 101 carried its key.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import WebSocket from 'ws';
import { PROJECT_DIR } from './sandbox';
import type { Session } from './session';
import { auth, openSocket, refusal, startPageServer, startTestPool, TEST_TOKEN, waitFor, type OpenSocket, type PageServer, type TestPool } from './testing';
import { programRunner } from '../../scripts/lib/processes';

const SECRET = `isolation-secret-${randomBytes(8).toString('hex')}`;
const BLOCKED = /ERR_BLOCKED_BY_ADMINISTRATOR/;

let pool: TestPool;
let pages: PageServer;
let browser: Browser; // Playwright, session A
let context: BrowserContext;
let a: Session;
let b: OpenSocket; // a raw CDP socket, session B
let bSession: Session;

/** Host files a page must never read, and a string each of them contains. */
interface HostFile {
  what: string;
  file: string;
  marker: string;
}
let filesForA: HostFile[];
let filesForB: HostFile[];

before(async () => {
  // The pool's own environment must not reach its browsers.
  process.env.ISOLATION_TEST_SECRET = SECRET;
  [pool, pages] = await Promise.all([startTestPool({ capacity: 3 }), startPageServer()]);
  writeFileSync(path.join(pool.dataDir, 'secrets.json'), JSON.stringify({ poolToken: SECRET, authSecret: SECRET }), { mode: 0o600 });
  browser = await chromium.connectOverCDP(pool.ws, { headers: auth });
  context = browser.contexts()[0]!;
  a = [...pool.pool.sessions.values()].find((s) => s.state === 'open')!;
  b = await openSocket(pool.ws, auth);
  bSession = pool.pool.sessions.get(b.sessionId)!;
  // World-readable on purpose: only the sandbox stands between a browser and the other's profile.
  for (const session of [a, bSession]) writeFileSync(path.join(session.userDataDir, 'marker.txt'), SECRET, { mode: 0o644 });
  const common = [
    { what: '/etc/passwd', file: '/etc/passwd', marker: 'root:' },
    { what: "DATA_DIR's secrets.json", file: path.join(pool.dataDir, 'secrets.json'), marker: SECRET },
    { what: "the project's package.json", file: path.join(PROJECT_DIR, 'package.json'), marker: '"browser-router"' },
  ];
  filesForA = [...common, { what: "another session's profile", file: path.join(bSession.userDataDir, 'marker.txt'), marker: SECRET }];
  filesForB = [...common, { what: "another session's profile", file: path.join(a.userDataDir, 'marker.txt'), marker: SECRET }];
});

after(async () => {
  delete process.env.ISOLATION_TEST_SECRET;
  await browser?.close();
  b?.ws.close();
  await pool?.stop();
  await pages?.close();
});

const fileUrl = (file: string) => pathToFileURL(file).href;

async function freshPage(): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${pages.origin}/`);
  return page;
}

test('the host files exist: the refusals below are about access, not missing files', () => {
  for (const { file, marker } of [...filesForA, ...filesForB]) assert.ok(readFileSync(file, 'utf8').includes(marker), file);
});

test('page.goto refuses file: (Playwright and puppeteer); about:blank, data: and http pages still load', async () => {
  for (const { what, file } of filesForA) {
    const page = await context.newPage();
    await assert.rejects(page.goto(fileUrl(file)), BLOCKED, what);
    await page.close();
  }
  const page = await context.newPage();
  await page.goto('about:blank');
  await page.goto('data:text/html,<p id="p">from data</p>');
  assert.equal(await page.textContent('#p'), 'from data');
  await page.goto(`${pages.origin}/`);
  assert.equal(await page.textContent('#p'), 'hello from the test server');
  await page.close();

  const viaPuppeteer = await puppeteer.connect({ browserWSEndpoint: pool.ws, headers: auth });
  try {
    const tab = await viaPuppeteer.newPage();
    await tab.goto('about:blank');
    await tab.goto('data:text/html,<p id="p">from data</p>');
    assert.equal(await tab.$eval('#p', (e) => e.textContent), 'from data');
    await tab.goto(`${pages.origin}/`);
    assert.equal(await tab.$eval('#p', (e) => e.textContent), 'hello from the test server');
    await assert.rejects(tab.goto(fileUrl(filesForA[1]!.file)), BLOCKED);
  } finally {
    await viaPuppeteer.close();
  }
});

test('other local-state schemes are refused too: view-source:, chrome://, devtools://', async () => {
  for (const url of [
    `view-source:${fileUrl('/etc/passwd')}`,
    `view-source:${pages.origin}/`,
    'chrome://version',
    'devtools://devtools/bundled/inspector.html',
  ]) {
    // A fresh page each: a blocked chrome:// navigation that starts while the previous error page
    // still commits can take the browser down (Chromium 156); see README.md, "Isolation".
    const page = await context.newPage();
    await assert.rejects(page.goto(url), BLOCKED, url);
    await page.close();
  }
});

/** One CDP command on a raw socket, optionally on a flattened target session. */
let nextId = 1000;
function send(
  ws: WebSocket,
  method: string,
  params: object = {},
  sessionId?: string,
): Promise<{ result?: Record<string, unknown>; error?: { message: string } }> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { id?: number };
      if (message.id !== id) return;
      ws.off('message', onMessage);
      resolve(message as { result?: Record<string, unknown> });
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
  });
}

async function evaluate(ws: WebSocket, sessionId: string, expression: string): Promise<unknown> {
  const answer = await send(ws, 'Runtime.evaluate', { expression, returnByValue: true }, sessionId);
  return (answer.result?.result as { value?: unknown } | undefined)?.value;
}

test('raw CDP: Target.createTarget and Page.navigate to file: load nothing', async () => {
  for (const { what, file, marker } of filesForB) {
    const created = await send(b.ws, 'Target.createTarget', { url: fileUrl(file) });
    const targetId = created.result!.targetId as string;
    const sessionId = (await send(b.ws, 'Target.attachToTarget', { targetId, flatten: true })).result!.sessionId as string;
    // The blocked navigation ends on Chromium's error page.
    const href = await waitFor(`${what}: the new target settles`, async () => {
      const at = String(await evaluate(b.ws, sessionId, 'document.readyState === "complete" ? location.href : ""'));
      return at && at !== 'about:blank' ? at : undefined;
    });
    assert.equal(href, 'chrome-error://chromewebdata/', what);
    assert.ok(!String(await evaluate(b.ws, sessionId, 'document.documentElement.outerHTML')).includes(marker), what);

    const navigated = await send(b.ws, 'Page.navigate', { url: fileUrl(file) }, sessionId);
    assert.match(String(navigated.result?.errorText), BLOCKED, what);
    await send(b.ws, 'Target.closeTarget', { targetId });
  }
});

test('window.open and links to file: open nothing', async () => {
  for (const { what, file, marker } of filesForA) {
    const page = await freshPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.text().startsWith('Not allowed to load local resource')) refused.push(message.text());
    });
    const url = fileUrl(file);
    await page.evaluate((u) => {
      window.open(u);
    }, url);
    await page.evaluate((u) => {
      document.body.innerHTML = `<a id="same" href="${u}">same tab</a><a id="blank" target="_blank" href="${u}">new tab</a>`;
    }, url);
    await page.click('#same');
    await page.click('#blank');
    await waitFor(`${what}: three refusals`, () => refused.length >= 3);
    assert.equal(page.url(), `${pages.origin}/`, what);
    for (const other of context.pages()) {
      assert.ok(!other.url().startsWith('file:'), `${what}: ${other.url()}`);
      assert.ok(!(await other.content().catch(() => '')).includes(marker), what);
    }
    await page.close();
  }
});

test('the browser cannot read host files even when a path gets through: file inputs set over CDP', async () => {
  const page = await freshPage();
  await page.evaluate(() => {
    document.body.innerHTML = '<input type="file" id="f">';
  });
  const session = await context.newCDPSession(page);
  const { root } = await session.send('DOM.getDocument');
  const { nodeId } = await session.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#f' });
  // The relay refuses paths (uploads.test.ts); a command too large for it to read gets one through.
  await assert.rejects(session.send('DOM.setFileInputFiles', { nodeId, files: [filesForA[0]!.file] }), /cannot work on the local pool/);
  const unread = 'x'.repeat(70 * 1024);
  for (const { what, file } of filesForA) {
    // DOM.setFileInputFiles takes host paths and bypasses every URL rule: only the sandbox stops it.
    await session.send('DOM.setFileInputFiles', { nodeId, files: [file], unread } as { nodeId: number; files: string[] });
    const read = await page.evaluate(async () => {
      const chosen = (document.getElementById('f') as HTMLInputElement).files![0]!;
      try {
        return `read: ${await chosen.text()}`;
      } catch (error) {
        return `refused: ${(error as Error).name}`;
      }
    });
    assert.equal(read, 'refused: NotFoundError', what);
  }
  await page.close();
});

function statusOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.split(':')[0]!, line.slice(line.indexOf(':') + 1).trim()]),
  );
}

test("the browser's processes see none of the host, run as a uid of their own and get none of the pool's environment", () => {
  const isolation = pool.pool.isolation!;
  assert.ok(isolation.bwrap, `the pool runs its browsers under bwrap (isolation: ${isolation.level})`);
  const runDir = path.dirname(a.userDataDir);
  for (const [session, other] of [
    [a, bSession],
    [bSession, a],
  ] as const) {
    // What the sandboxed main process sees as "/", from the host.
    const root = `/proc/${session.pid}/root`;
    const top = new Set(['bin', 'dev', 'etc', 'lib', 'lib32', 'lib64', 'libx32', 'proc', 'sbin', 'tmp', 'usr', 'var', pool.dataDir.split('/')[1]!]);
    for (const entry of readdirSync(root)) assert.ok(top.has(entry), `/${entry} is visible in the sandbox`);
    assert.deepEqual(readdirSync(`${root}${pool.dataDir}`), ['pool'], 'DATA_DIR shows nothing but the way to the profile');
    assert.deepEqual(readdirSync(`${root}${runDir}`), [session.id], 'no other session, no owner.json, no policy directory');
    assert.ok(existsSync(`${root}${session.userDataDir}/Default`), 'its own profile is there');
    assert.ok(!existsSync(`${root}${other.userDataDir}`), "another session's profile is not");
    assert.ok(!existsSync(`${root}${path.join(pool.dataDir, 'secrets.json')}`), "DATA_DIR's secrets.json is not");
    assert.ok(!existsSync(`${root}${path.join(PROJECT_DIR, 'package.json')}`), 'the project is not');
    for (const hostOnly of ['/etc/passwd', '/etc/shadow', '/root', '/home']) assert.ok(!existsSync(`${root}${hostOnly}`), hostOnly);
    assert.ok(existsSync(`${root}/etc/chromium/policies/managed/pool.json`), 'the managed policy is');

    assert.ok(!readFileSync(`/proc/${session.pid}/environ`, 'utf8').includes(SECRET), "the pool's environment does not reach the browser");
    const cmdline = readFileSync(`/proc/${session.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(
      cmdline.includes(`--proxy-server=${pool.pool.egress!.url}`) && cmdline.includes('--proxy-bypass-list=<-loopback>'),
      `the egress proxy is on the command line: ${cmdline.join(' ')}`,
    );
    assert.equal(cmdline.includes('--no-sandbox'), !isolation.chromiumSandbox, "Chromium's own sandbox is on wherever it can be");
  }
  if (isolation.uidBase !== undefined) {
    const uids = [a, bSession].map((session) => statusOf(session.pid!).Uid!.split(/\s+/).map(Number));
    for (const ids of uids) {
      assert.ok(
        ids.every((id) => id === ids[0] && id >= isolation.uidBase! && id < isolation.uidBase! + pool.pool.slotCount),
        `uids ${ids}`,
      );
    }
    assert.notEqual(uids[0]![0], uids[1]![0], 'one uid per browser');
    assert.equal(statusOf(a.pid!).NoNewPrivs, '1');
    assert.equal(statusOf(a.pid!).CapEff, '0000000000000000');
  } else {
    assert.notEqual(process.getuid?.(), 0, 'only a pool that is not root keeps its own uid for its browsers');
  }
});

test("pages reach the network only through the egress proxy: not the pool, not another browser's DevTools, not with a proxy of their own", async (t) => {
  assert.ok(
    pool.pool.policy.internalPorts.has(pool.port) && pool.pool.policy.internalPorts.has(pool.pool.egress!.port),
    `the pool's and the egress proxy's ports are refused to pages: ${[...pool.pool.policy.internalPorts].join(', ')}`,
  );
  assert.ok(pool.pool.policy.internalPorts.has(bSession.devtoolsPort!), "a live browser's DevTools port is refused to pages");
  const page = await context.newPage();
  assert.equal((await page.goto(`${pages.origin}/`))?.status(), 200);
  // Refused with the egress policy's 403 page, never an answer of the pool or the browser.
  for (const url of [
    `${pool.http}/pool/status`,
    `http://127.0.0.1:${bSession.devtoolsPort}/json/version`,
    `http://localhost:${bSession.devtoolsPort}/json/version`,
  ]) {
    const tab = await context.newPage();
    const response = await tab.goto(url);
    assert.equal(response?.status(), 403, url);
    assert.match(
      await tab.locator('body').innerText(),
      /refused by this service's egress policy: .*one of this service's own ports, refused whatever PRIVATE_NETWORK says/,
      url,
    );
    await tab.close();
  }

  // WebRTC gathers no UDP candidate (WebRtcIPHandling: disable_non_proxied_udp).
  const candidates = await page.evaluate(async () => {
    const pc = new RTCPeerConnection();
    pc.createDataChannel('probe');
    const found: string[] = [];
    pc.onicecandidate = (event) => {
      if (event.candidate?.candidate) found.push(event.candidate.candidate);
    };
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') resolve();
      pc.onicegatheringstatechange = () => {
        if (pc.iceGatheringState === 'complete') resolve();
      };
    });
    pc.close();
    return found;
  });
  assert.deepEqual(
    candidates.filter((c) => / udp /i.test(c)),
    [],
  );
  await page.close();

  // A CDP client may give a context a proxy of its own (Target.createBrowserContext({ proxyServer })),
  // which Chromium's managed proxy policy does not override; the Landlock rule refuses the connection.
  if (!pool.pool.isolation!.landlock) return t.skip(`no Landlock on this machine (${pool.pool.isolation!.notes.join('; ')})`);
  const own = await browser.newContext({ proxy: { server: pages.origin } }); // the page server answers anything
  try {
    const tab = await own.newPage();
    await assert.rejects(tab.goto('http://example.invalid/'), /ERR_PROXY_CONNECTION_FAILED/);
  } finally {
    await own.close();
  }
});

const ENDPOINTS: [string, string][] = [
  ['GET', '/pool/status'],
  ['GET', '/pool/sessions'],
  ['GET', '/json/version'],
  ['GET', '/json/version/'],
  ['POST', '/pool/prepare'],
  ['GET', '/pool/sessions/00000000-0000-0000-0000-000000000000/indexeddb'],
  ['DELETE', '/pool/sessions/00000000-0000-0000-0000-000000000000/indexeddb'],
  ['GET', '/'],
  ['GET', '/devtools/browser'],
  ['GET', '/elsewhere'],
];

test('every endpoint answers 401 without the token or with a wrong one; nothing starts', async () => {
  const live = [...pool.pool.sessions.keys()];
  const endpoints: [string, string][] = [...ENDPOINTS, ['GET', `/pool/sessions/${live[0]}/indexeddb`], ['DELETE', `/pool/sessions/${live[0]}/indexeddb`]];
  for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${TEST_TOKEN}x` }, { authorization: `Basic ${TEST_TOKEN}` }] as Record<
    string,
    string
  >[]) {
    for (const [method, p] of endpoints) {
      const res = await fetch(`${pool.http}${p}`, { method, headers });
      assert.equal(res.status, 401, `${method} ${p} ${JSON.stringify(headers)}`);
      assert.equal(await res.text(), 'unauthorized\n');
    }
    for (const p of ['/', '/devtools/browser', '/devtools/browser/x', '/elsewhere'])
      assert.deepEqual(await refusal(`${pool.ws}${p}`, headers), { status: 401, body: 'unauthorized' }, p);
  }
  for (const [method, p] of endpoints) assert.equal((await fetch(`${pool.http}${p}?token=wrong`, { method })).status, 401);
  assert.deepEqual(await refusal(`${pool.ws}/?token=wrong`), { status: 401, body: 'unauthorized' });
  assert.deepEqual([...pool.pool.sessions.keys()], live, 'no session was started');
});

test('a snapshot goes only to its own session: X-Pool-Snapshot-Key from the 101, compared in constant time', async () => {
  // Asked while A still runs: refused at once, not after waiting for the session to end.
  assert.equal((await pool.get(`/pool/sessions/${a.id}/indexeddb`)).status, 403);
  assert.equal((await pool.get(`/pool/sessions/${a.id}/indexeddb`, { headers: { 'x-pool-snapshot-key': b.snapshotKey } })).status, 403);

  const c = await openSocket(pool.ws, auth);
  assert.match(c.snapshotKey, /^[A-Za-z0-9_-]{43}$/);
  const listed = await (await pool.get('/pool/sessions')).text();
  assert.ok(listed.includes(c.sessionId) && !listed.includes(c.snapshotKey), 'the listing names sessions, never their keys');
  c.ws.close();
  await c.closed;
  const url = `/pool/sessions/${c.sessionId}/indexeddb`;
  for (const key of [undefined, '', b.snapshotKey, `${c.snapshotKey}x`, c.snapshotKey.slice(1)]) {
    const headers: Record<string, string> = key === undefined ? {} : { 'x-pool-snapshot-key': key };
    const res = await pool.get(url, { headers });
    assert.equal(res.status, 403, `key ${JSON.stringify(key)}`);
    assert.match(await res.text(), /X-Pool-Snapshot-Key/);
    assert.equal((await pool.get(url, { method: 'DELETE', headers })).status, 403);
  }
  const own = { 'x-pool-snapshot-key': c.snapshotKey };
  const snapshot = await pool.get(url, { headers: own });
  assert.equal(snapshot.status, 200);
  assert.equal(snapshot.headers.get('content-type'), 'application/x-tar');
  assert.deepEqual(await (await pool.get(url, { method: 'DELETE', headers: own })).json(), { id: c.sessionId, deleted: true });
  assert.equal((await pool.get(url, { headers: own })).status, 404);
});

test("a stopped browser's DevTools port is no longer refused", async () => {
  const port = bSession.devtoolsPort!;
  b.ws.close();
  await b.closed;
  await waitFor('session B gone', () => !pool.pool.sessions.has(bSession.id));
  assert.ok(!pool.pool.policy.internalPorts.has(port), `port ${port} is still refused`);
});

test('without bwrap the pool refuses to start, unless POOL_ISOLATION=none says so; it logs what is in force', async () => {
  const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pool-nobwrap-'));
  // Runs the pool alone until it exits, or until `until` shows in its output (then SIGTERM).
  const run = (extra: Record<string, string>, until?: RegExp) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      // A PATH without bwrap on it (node is started by its full path, the program by its path).
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: path.join(dataDir, 'no-bin'),
        DATA_DIR: dataDir,
        POOL_PORT: '0',
        POOL_TOKEN: TEST_TOKEN,
        LOG_LEVEL: 'info',
        ...extra,
      };
      const child = spawn(process.execPath, [programRunner, entry], { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: PROJECT_DIR });
      let output = '';
      const onData = (chunk: Buffer) => {
        output += chunk;
        if (until?.test(output)) child.kill('SIGTERM');
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => resolve({ code, output }));
    });
  try {
    const refused = await run({});
    assert.equal(refused.code, 1);
    assert.match(refused.output, /bwrap \(bubblewrap\) not found.*POOL_ISOLATION=none/);
    const optedOut = await run({ POOL_ISOLATION: 'none' }, /"msg":"pool listening"/);
    assert.match(optedOut.output, /"isolation":"none[^"]*".*"msg":"sandbox: none/);
    assert.match(optedOut.output, /POOL_ISOLATION=none: browsers see the whole filesystem/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
