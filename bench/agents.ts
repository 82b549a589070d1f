// bench/agents — what the agent toolkit's snapshot and click cost on pages shaped like real ones,
// driven in-process against a standalone Chromium (no proxy: the toolkit's own cost), beside
// baselines measured in the same run:
//  1. Snapshot size: our default snapshot (viewport, interactive only) and `scope: "full"`, both
//     within the toolkit's budget (200 lines, 16 KB), and every element the full walk found
//     (uncapped); beside them playwright-mcp's `browser_snapshot` of the same page (the bytes of its
//     text content), through --cdp-endpoint of a second Chromium of the same build.
//  2. Snapshot time: the first snapshot of a freshly loaded document (it makes the isolated world
//     and installs the page script; --loads loads), then --runs repeated snapshots of the loaded page,
//     each default and full, p50/p95. Baseline: a Runtime.evaluate("1") round trip on the same tab.
//     playwright-mcp's browser_snapshot timed alike (--mcp-runs), beside its own round trip (a
//     browser_tabs list). Target: our default snapshot p50 ≤ 300 ms.
//  3. Click: --clicks clicks of act([{ action: "click", ref }]) on a button whose handler does trivial
//     work, interleaved with the same click as three raw Input.dispatchMouseEvent calls
//     (moved/pressed/released) on the same tab over a CDP connection of its own. act() also waits for
//     the page to settle and answers with the snapshot diff, so the difference is the toolkit's whole
//     cost beyond the page's own work. Target: act p50 − raw p50 ≤ 150 ms. On a small page of ours
//     and on each fixture, the target scrolled to the viewport's centre first.
// The three fixtures in bench/pages/ were written for this bench after the shape of common page
// types: a news article (mega-menus, cookie banner), a shop's category listing (filters, 60 product
// cards), a SaaS settings page (a long form, switches, a members table with menus). They ask only for
// this server: their images are placeholders it draws.
// Saved real pages can be measured beside them (sizes and snapshot times; no click target is known):
//   npx tsx bench/agents.ts [--runs 20] [--loads 5] [--mcp-runs 5] [--clicks 30] [--viewport 1280x720] [saved.html …]
// Each extra page is served from its own folder, so a browser's "Save page as… complete" assets load.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { launchChromium, type Chromium } from '../e2e/support/chromium';
import { act } from '../proxy/agent/actions';
import { snapshot } from '../proxy/agent/reading';
import { SessionSet } from '../proxy/agent/session-set';
import { formatSnapshot, type RawSnapshot } from '../proxy/agent/snapshot';
import { CdpConnection } from './cdp-connection';
import { fmt, percentile } from './lib';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: 'string', default: '20' },
    loads: { type: 'string', default: '5' },
    'mcp-runs': { type: 'string', default: '5' },
    clicks: { type: 'string', default: '30' },
    viewport: { type: 'string', default: '1280x720' },
  },
});
const runs = Number(values.runs);
const loads = Number(values.loads);
const mcpRuns = Number(values['mcp-runs']);
const clicks = Number(values.clicks);
const [width, height] = (/^(\d+)x(\d+)$/
  .exec(values.viewport ?? '')
  ?.slice(1)
  .map(Number) ?? []) as number[];
if (!width || !height) throw new Error('--viewport takes WxH (e.g. 1280x720)');
const TARGETS = { snapshotP50Ms: 300, clickBeyondMs: 150 };
const WARMUP = 3;
const PAGES_DIR = path.join(import.meta.dirname, 'pages');
const require = createRequire(import.meta.url);
const MCP_DIR = path.dirname(require.resolve('@playwright/mcp/package.json'));
const MCP_VERSION = (JSON.parse(readFileSync(path.join(MCP_DIR, 'package.json'), 'utf8')) as { version: string }).version;

interface PageSpec {
  name: string;
  path: string;
  /** The element clicked: found in the page by selector, in our snapshot by its line. */
  click?: { selector: string; line: RegExp };
}
const extras = positionals.map((file, i) => {
  const full = path.resolve(file);
  if (!existsSync(full) || !statSync(full).isFile()) throw new Error(`${file}: no such file`);
  return { name: path.basename(full), dir: path.dirname(full), path: `/extra/${i}/${encodeURIComponent(path.basename(full))}` };
});
const pages: PageSpec[] = [
  { name: 'news-article', path: '/pages/news-article.html', click: { selector: '#share-copy-link', line: /^e\d+ button "Copy link"/ } },
  { name: 'shop-listing', path: '/pages/shop-listing.html', click: { selector: '#add-to-cart-first', line: /^e\d+ button "Add to cart"/ } },
  { name: 'app-settings', path: '/pages/app-settings.html', click: { selector: '#switch-weekly-summary', line: /^e\d+ switch "Weekly summary"/ } },
  ...extras.map((e) => ({ name: e.name, path: e.path })),
];
const CLICK_PAGE: PageSpec = { name: 'one button (ours)', path: '/click', click: { selector: '#add', line: /^e\d+ button "Add one"/ } };

const mcpOutput = mkdtempSync(path.join(os.tmpdir(), 'br-bench-agents-'));
let site: { url: string; close(): Promise<void> } | null = null;
let ours: Chromium | null = null;
let theirs: Chromium | null = null;
let sessions: SessionSet | null = null;
let raw: CdpConnection | null = null;
let mcp: Client | null = null;
let cleaning: Promise<void> | null = null;
const cleanup = () =>
  (cleaning ??= (async () => {
    for (const step of [
      async () => mcp?.close(),
      async () => raw?.close(),
      async () => sessions?.closeAll('bench over'),
      async () => ours?.stop(),
      async () => theirs?.stop(),
      async () => site?.close(),
    ]) {
      await step().catch((error: Error) => console.error(`[bench] cleanup: ${error.message}`));
    }
    rmSync(mcpOutput, { recursive: true, force: true });
  })());
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanup().finally(() => process.exit(130)));

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95) };
};
const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const t0 = performance.now();
  const value = await work();
  return { value, ms: performance.now() - t0 };
};
const bytes = (text: string) => Buffer.byteLength(text);
const lines = (text: string) => text.split('\n').length;
const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');

try {
  site = await startSite();
  [ours, theirs] = await Promise.all([launchChromium(), launchChromium()]);
  sessions = new SessionSet({ kind: 'browser', connect: async () => ({ url: ours!.wsUrl }) });
  const session = await sessions.open();
  const tab = await session.tab();
  await tab.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  raw = await CdpConnection.open(ours.wsUrl);
  const rawSession = (await raw.call('Target.attachToTarget', { targetId: tab.targetId, flatten: true })).sessionId as string;
  const evaluate = async <T>(expression: string): Promise<T> =>
    (await tab.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })).result.value as T;

  /** navigate() without its closing snapshot, so that the first snapshot (which makes the isolated world) is timed alone. */
  const load = async (pagePath: string) => {
    tab.loading = true;
    const { errorText } = await tab.send('Page.navigate', { url: `${site!.url}${pagePath}` }, 60_000);
    if (errorText) throw new Error(`${pagePath} did not load: ${errorText}`);
    if (!(await tab.waitForLoad(60_000))) throw new Error(`${pagePath} was still loading after 60 s`);
  };

  mcp = new Client({ name: 'bench-agents', version: '1.0.0' });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(MCP_DIR, 'cli.js'), '--cdp-endpoint', theirs.wsUrl, '--output-dir', mcpOutput],
      stderr: 'ignore',
    }),
  );
  const mcpTools = new Set((await mcp.listTools()).tools.map((t) => t.name));
  for (const name of ['browser_navigate', 'browser_snapshot', 'browser_tabs', 'browser_resize'])
    if (!mcpTools.has(name)) throw new Error(`playwright-mcp ${MCP_VERSION} has no ${name} tool`);
  const mcpCall = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await mcp!.callTool({ name, arguments: args })) as { content: { type: string; text?: string }[]; isError?: boolean };
    const text = result.content
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('\n');
    if (result.isError) throw new Error(`playwright-mcp ${name}: ${text.slice(0, 300)}`);
    return text;
  };

  // A page attached over CDP keeps the browser window's size: give it ours.
  await mcpCall('browser_navigate', { url: 'about:blank' });
  await mcpCall('browser_resize', { width, height });

  const rows: Awaited<ReturnType<typeof measurePage>>[] = [];
  for (const page of pages) {
    rows.push(await measurePage(page));
    console.error(`[bench] ${page.name} measured`);
  }
  const clickRows = [];
  for (const page of [CLICK_PAGE, ...pages.filter((p) => p.click)]) {
    clickRows.push({ name: page.name, ...(await measureClicks(page)) });
    console.error(`[bench] clicks on ${page.name} measured`);
  }

  async function measurePage(page: PageSpec) {
    const firsts: number[] = [];
    for (let i = 0; i < loads; i++) {
      await load(page.path);
      firsts.push((await timed(() => snapshot(session))).ms);
    }
    const shape = await evaluate<{ elements: number; nodes: number; html: number }>(`(() => {
      let nodes = 0;
      const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
      while (walker.nextNode()) nodes++;
      return { elements: document.getElementsByTagName('*').length, nodes, html: document.documentElement.outerHTML.length };
    })()`);
    const rtt: number[] = [];
    const viewport: number[] = [];
    const full: number[] = [];
    let viewportText = '';
    let fullText = '';
    for (let i = -WARMUP; i < runs; i++) {
      const round = await timed(async () => {
        await tab.send('Runtime.evaluate', { expression: '1', returnByValue: true });
      });
      const a = await timed(() => snapshot(session));
      const b = await timed(() => snapshot(session, { scope: 'full' }));
      if (i < 0) continue;
      rtt.push(round.ms);
      viewport.push(a.ms);
      full.push(b.ms);
      viewportText = a.value;
      fullText = b.value;
    }
    // Every element the full walk found, as the model would read it without the budget.
    const everything = await tab.call<RawSnapshot>('snapshot', [{ scope: 'full', interactiveOnly: true, nextRef: session.nextRef }]);
    session.nextRef = Math.max(session.nextRef, everything.nextRef);
    const uncapped = formatSnapshot(everything, { scope: 'full', maxLines: Infinity, maxBytes: Infinity }).text;

    await mcpCall('browser_navigate', { url: `${site!.url}${page.path}` });
    const mcpFirst = await timed(() => mcpCall('browser_snapshot'));
    const mcpTimes: number[] = [];
    const mcpRtt: number[] = [];
    for (let i = 0; i < mcpRuns; i++) {
      mcpRtt.push((await timed(() => mcpCall('browser_tabs', { action: 'list' }))).ms);
      mcpTimes.push((await timed(() => mcpCall('browser_snapshot'))).ms);
    }
    return {
      page,
      shape,
      firsts: stats(firsts),
      rtt: stats(rtt),
      viewport: stats(viewport),
      full: stats(full),
      sizes: { viewport: viewportText, full: fullText, uncapped, elements: everything.lines.length, mcp: mcpFirst.value },
      mcp: { first: mcpFirst.ms, ...stats(mcpTimes), rtt: stats(mcpRtt).p50 },
    };
  }

  async function measureClicks(page: PageSpec) {
    const { selector, line } = page.click!;
    await load(page.path);
    // Counts the clicks that reached the element, ours and the raw ones alike.
    await evaluate(`(() => {
      const el = document.querySelector(${JSON.stringify(selector)});
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      window.__benchClicks = 0;
      el.addEventListener('click', () => window.__benchClicks++);
      return new Promise((resolve) => requestAnimationFrame(() => resolve(true)));
    })()`);
    const text = await snapshot(session);
    const ref = text
      .split('\n')
      .find((l) => line.test(l))
      ?.split(' ')[0];
    if (!ref) throw new Error(`${page.name}: no line matching ${line} in the snapshot:\n${text}`);
    const at = await tab.call<{ x: number; y: number; error?: string }>('point', [ref, 'click']);
    if (at.error) throw new Error(`${page.name}: ${ref} cannot be clicked: ${at.error}`);
    const ourClick = () => act(session, [{ action: 'click', ref }]);
    const rawClick = async () => {
      for (const [type, extra] of [
        ['mouseMoved', {}],
        ['mousePressed', { button: 'left', buttons: 1, clickCount: 1 }],
        ['mouseReleased', { button: 'left', buttons: 0, clickCount: 1 }],
      ] as const) {
        await raw!.call('Input.dispatchMouseEvent', { type, x: at.x, y: at.y, ...extra }, rawSession);
      }
    };
    const ourMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = -WARMUP; i < clicks; i++) {
      // The order alternates, so that neither side always runs right after the other's work.
      const pair =
        i % 2 === 0
          ? ([
              [ourClick, ourMs],
              [rawClick, rawMs],
            ] as const)
          : ([
              [rawClick, rawMs],
              [ourClick, ourMs],
            ] as const);
      for (const [click, samples] of pair) {
        const { ms } = await timed(click as () => Promise<unknown>);
        if (i >= 0) samples.push(ms);
      }
    }
    const reached = await evaluate<number>('window.__benchClicks');
    if (reached !== 2 * (clicks + WARMUP)) throw new Error(`${page.name}: ${reached} of ${2 * (clicks + WARMUP)} clicks reached the element`);
    const diff = (await timed(() => snapshot(session, { sinceLast: true }))).ms;
    return { ours: stats(ourMs), raw: stats(rawMs), reached, diffMs: diff };
  }

  // The report.
  const version = (await (await fetch(`${ours.httpUrl}/json/version`)).json()) as { Browser: string };
  const mcpViewport = await mcpCall('browser_evaluate', { function: '() => `${innerWidth}x${innerHeight}`' })
    .then((t) => /(\d+x\d+)/.exec(t)?.[1] ?? '?')
    .catch(() => '?');
  console.log(
    `agents benchmark: ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${version.Browser}, viewport ${width}×${height} (playwright-mcp's page: ${mcpViewport}), playwright-mcp ${MCP_VERSION}`,
  );
  console.log(`\n  ${'page'.padEnd(22)}${'elements'.padStart(10)}${'DOM nodes'.padStart(11)}${'HTML KB'.padStart(9)}`);
  for (const r of rows)
    console.log(
      `  ${r.page.name.padEnd(22)}${String(r.shape.elements).padStart(10)}${String(r.shape.nodes).padStart(11)}${fmt(r.shape.html / 1024, 0).padStart(9)}`,
    );

  const size = (text: string) => `${bytes(text).toLocaleString('en-US')} / ${lines(text)}`;
  console.log(
    '\n1. Snapshot size, bytes / lines (ours within the toolkit\'s budget of 200 lines and 16 KB; "all" = every element the full walk found, uncapped)',
  );
  console.log(
    `  ${'page'.padEnd(22)}${'ours viewport'.padStart(17)}${'ours full'.padStart(17)}${'ours all'.padStart(17)}${'playwright-mcp'.padStart(18)}${'mcp / ours all'.padStart(16)}`,
  );
  for (const r of rows) {
    const s = r.sizes;
    console.log(
      `  ${r.page.name.padEnd(22)}${size(s.viewport).padStart(17)}${size(s.full).padStart(17)}${size(s.uncapped).padStart(17)}${size(s.mcp).padStart(18)}${fmt(bytes(s.mcp) / bytes(s.uncapped), 1).padStart(15)}×`,
    );
  }

  console.log(
    `\n2. Snapshot time, ms (${runs} runs each after ${WARMUP} warm-ups; first = the first snapshot of a fresh document, median of ${loads} loads; playwright-mcp ${mcpRuns} runs through its MCP stdio, its RTT a browser_tabs list)`,
  );
  console.log(
    `  ${'page'.padEnd(22)}${'RTT p50'.padStart(9)}${'first'.padStart(8)}${'viewport p50'.padStart(14)}${'p95'.padStart(7)}${'beyond RTT'.padStart(12)}${'full p50'.padStart(10)}${'p95'.padStart(7)}${'mcp first'.padStart(11)}${'mcp p50'.padStart(9)}${'mcp RTT'.padStart(9)}${'≤ 300 ms'.padStart(10)}`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.page.name.padEnd(22)}${fmt(r.rtt.p50, 2).padStart(9)}${fmt(r.firsts.p50).padStart(8)}${fmt(r.viewport.p50).padStart(14)}${fmt(r.viewport.p95).padStart(7)}${fmt(r.viewport.p50 - r.rtt.p50).padStart(12)}${fmt(r.full.p50).padStart(10)}${fmt(r.full.p95).padStart(7)}${fmt(r.mcp.first).padStart(11)}${fmt(r.mcp.p50).padStart(9)}${fmt(r.mcp.rtt).padStart(9)}${pass(r.viewport.p50 <= TARGETS.snapshotP50Ms).padStart(10)}`,
    );
  }

  console.log(
    `\n3. Click, ms (${clicks} clicks each after ${WARMUP} warm-ups, interleaved): act() vs the same click as 3 raw Input.dispatchMouseEvent; "diff" = the snapshot diff act() ends with, alone`,
  );
  console.log(
    `  ${'page'.padEnd(22)}${'act p50'.padStart(9)}${'p95'.padStart(7)}${'raw p50'.padStart(9)}${'p95'.padStart(7)}${'act − raw'.padStart(11)}${'diff'.padStart(7)}${'≤ 150 ms'.padStart(10)}`,
  );
  for (const c of clickRows) {
    const beyond = c.ours.p50 - c.raw.p50;
    console.log(
      `  ${c.name.padEnd(22)}${fmt(c.ours.p50).padStart(9)}${fmt(c.ours.p95).padStart(7)}${fmt(c.raw.p50).padStart(9)}${fmt(c.raw.p95).padStart(7)}${fmt(beyond).padStart(11)}${fmt(c.diffMs).padStart(7)}${pass(beyond <= TARGETS.clickBeyondMs).padStart(10)}`,
    );
  }

  const worstSnap = rows.reduce((a, b) => (b.viewport.p50 > a.viewport.p50 ? b : a));
  const worstFull = rows.reduce((a, b) => (b.full.p50 > a.full.p50 ? b : a));
  const snapOk = rows.filter((r) => r.viewport.p50 <= TARGETS.snapshotP50Ms).length;
  console.log(
    `\n  target: snapshot p50 ≤ ${TARGETS.snapshotP50Ms} ms: ${pass(snapOk === rows.length)} on ${snapOk} of ${rows.length} pages (slowest ${worstSnap.page.name} ${fmt(worstSnap.viewport.p50)} ms; scope full: slowest ${worstFull.page.name} ${fmt(worstFull.full.p50)} ms)`,
  );
  const beyond = clickRows.map((c) => ({ name: c.name, ms: c.ours.p50 - c.raw.p50 }));
  const worstClick = beyond.reduce((a, b) => (b.ms > a.ms ? b : a));
  const clickOk = beyond.filter((b) => b.ms <= TARGETS.clickBeyondMs).length;
  console.log(
    `  target: click ≤ ${TARGETS.clickBeyondMs} ms beyond the page's own work (act p50 − raw input p50): ${pass(clickOk === beyond.length)} on ${clickOk} of ${beyond.length} pages (largest ${worstClick.name} ${fmt(worstClick.ms)} ms)`,
  );
} finally {
  await cleanup();
}

/** The fixtures, placeholder images, a page with one button, and the extra pages, each from its folder. */
async function startSite() {
  const TYPES: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.htm': 'text/html; charset=utf-8',
    '.css': 'text/css',
    '.js': 'text/javascript',
    '.json': 'application/json',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.gif': 'image/gif',
    '.webp': 'image/webp',
    '.woff2': 'font/woff2',
    '.woff': 'font/woff',
  };
  const placeholder =
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300"><rect width="400" height="300" fill="#d9d9d9"/></svg>';
  const clickPage = `<!doctype html><html><head><meta charset="utf-8"><title>one button</title></head><body>
<p>Clicked <output id="count">0</output> times.</p><button id="add" type="button">Add one</button>
<script>document.getElementById('add').addEventListener('click', () => { const c = document.getElementById('count'); c.textContent = String(Number(c.textContent) + 1); });</script>
</body></html>`;
  const send = (res: http.ServerResponse, status: number, type: string, body: string | Buffer) =>
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
  const fileIn = (dir: string, rel: string) => {
    const file = path.resolve(dir, rel);
    return file.startsWith(dir + path.sep) && existsSync(file) && statSync(file).isFile() ? file : null;
  };
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://site').pathname);
    if (pathname === '/click') return send(res, 200, TYPES['.html']!, clickPage);
    if (pathname.includes('/assets/img/')) return send(res, 200, TYPES['.svg']!, placeholder);
    const extra = /^\/extra\/(\d+)\/(.+)$/.exec(pathname);
    const file = pathname.startsWith('/pages/')
      ? fileIn(PAGES_DIR, pathname.slice('/pages/'.length))
      : extra && extras[Number(extra[1])]
        ? fileIn(extras[Number(extra[1])]!.dir, extra[2]!)
        : null;
    if (!file) return send(res, 404, 'text/plain', 'not found');
    send(res, 200, TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', readFileSync(file));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
