// A local website made for the data-API tests: redirects, a non-200 page, slow and held loads,
// lazy images below the fold, a long article with navigation and ads, large pages, and pages that
// report what the browser sent. "Gates" hold a response until the test releases it, so tests wait
// for events instead of sleeping.
import http from 'node:http';
import type net from 'node:net';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

export const FIXTURE_PAGES = path.join(import.meta.dirname, '..', 'fixtures', 'pages');

export interface SeenRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestSite {
  url: string;
  /** Requests the site received that carried `?id=<id>` (or /gate/<id>), in order. */
  requests(id: string): SeenRequest[];
  /** Resolves when a request with that id and path arrives (already arrived: at once). */
  seen(id: string, pathname: string, timeoutMs?: number): Promise<SeenRequest>;
  /** Lets every held response of that id finish. */
  release(id: string): void;
  close(): Promise<void>;
}

const esc = (value: string | null) => (value ?? '').replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string, head = '') =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** A valid PNG of one opaque pixel, made here so the site needs no binary file. */
function onePixelPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, tail]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 200, 30, 30]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const ARTICLE_SENTENCE =
  'The river delta shifts its channels every few decades, and the towns along it have learned to move with the water rather than against it.';

export async function startTestSite(): Promise<TestSite> {
  const seen = new Map<string, SeenRequest[]>();
  const waiters = new Set<{ id: string; pathname: string; resolve: (r: SeenRequest) => void }>();
  const released = new Set<string>();
  const held = new Map<string, (() => void)[]>();
  const sockets = new Set<net.Socket>();
  const pixel = onePixelPng();

  const hold = (id: string, then: () => void) => {
    if (released.has(id)) return then();
    held.set(id, [...(held.get(id) ?? []), then]);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const gate = /^\/gate\/([\w-]+)$/.exec(url.pathname);
    const id = url.searchParams.get('id') ?? gate?.[1] ?? '';
    if (id) {
      const entry = { path: url.pathname, headers: req.headers };
      seen.set(id, [...(seen.get(id) ?? []), entry]);
      for (const w of waiters)
        if (w.id === id && w.pathname === url.pathname) {
          waiters.delete(w);
          w.resolve(entry);
        }
    }
    const html = (body: string, status = 200, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', ...headers }).end(body);
    const q = (name: string) => encodeURIComponent(url.searchParams.get(name) ?? '');

    switch (url.pathname) {
      case '/basic':
        return html(
          page(
            'Basic page',
            `
          <style>#box { position: absolute; left: 40px; top: 60px; width: 200px; height: 100px; background: rgb(200, 30, 30); }</style>
          <h1>Hello from the test site</h1><p>A paragraph with <a href="/missing">a relative link</a> and <a href="https://example.test/elsewhere">an absolute one</a>.</p>
          <div id="box"></div>`,
            '<meta name="description" content="A small page for the data API tests.">',
          ),
        );
      case '/animated':
        // A box that moves and a counter that ticks every 40 ms: the screen changes 25 times a
        // second (recordings); `?noise=1` paints random pixels (frames that compress badly).
        return html(
          page(
            url.searchParams.get('title') ?? 'Animated',
            `
          <style>body { margin: 0; font: 32px sans-serif; } #box { position: absolute; top: 120px; width: 120px; height: 120px; background: rgb(30, 90, 200); }</style>
          <p id="tick">0</p><div id="box"></div><canvas id="noise" width="640" height="360"></canvas>
          <script>
            let n = 0; const noise = ${url.searchParams.get('noise') === '1'};
            const ctx = document.getElementById('noise').getContext('2d');
            setInterval(() => {
              n++; document.getElementById('tick').textContent = String(n);
              document.getElementById('box').style.left = (n % 100) * 6 + 'px';
              if (noise) { const img = ctx.createImageData(640, 360); crypto.getRandomValues(img.data.subarray(0, 65536)); for (let i = 0; i < img.data.length; i += 65536) crypto.getRandomValues(img.data.subarray(i, Math.min(i + 65536, img.data.length))); ctx.putImageData(img, 0, 0); }
            }, 40);
          </script>`,
          ),
        );
      case '/missing':
        return html(page('Not here', '<h1>404: nothing at this address</h1>'), 404);
      case '/echo':
        return html(page('Echo', `<pre id="ua"></pre><script>document.getElementById('ua').textContent = navigator.userAgent;</script>`));
      case '/tall':
        return html(page('Tall page', '<div style="height: 3000px; background: linear-gradient(#fff, #06c)">top</div><p id="end">end</p>'));
      case '/late':
        return html(
          page(
            'Late element',
            `<p>waiting</p><script>fetch('/gate/${q('id')}').then(() => { const el = document.createElement('div'); el.id = 'late'; el.textContent = 'arrived late'; document.body.appendChild(el); });</script>`,
          ),
        );
      case '/lazy':
        return html(
          page(
            'Lazy images',
            `
          <p>above the fold</p><div style="height: 9000px"></div>
          <img loading="lazy" width="50" height="50" src="/pixel.png?id=${q('id')}&n=native" alt="native lazy">
          <div style="height: 3000px"></div>
          <img id="observed" width="50" height="50" data-src="/pixel.png?id=${q('id')}&n=observer" alt="observer lazy">
          <script>new IntersectionObserver((entries, io) => entries.forEach((e) => { if (e.isIntersecting) { e.target.src = e.target.dataset.src; io.unobserve(e.target); } })).observe(document.getElementById('observed'));</script>`,
          ),
        );
      case '/slow-image':
        return html(
          page(
            'parsing',
            `<img src="/held.png?id=${q('id')}" width="10" height="10"><script>addEventListener('load', () => { document.title = 'loaded'; });</script>`,
          ),
        );
      case '/after-load':
        return html(
          page(
            'parsing',
            `<script>addEventListener('load', () => { document.title = 'loaded'; fetch('/gate/${q('id')}').then(() => { document.title = 'idle-done'; }); });</script><p>after load</p>`,
          ),
        );
      case '/delayed-title':
        return html(page('early', `<script>setTimeout(() => { document.title = 'later'; }, ${Number(url.searchParams.get('ms') ?? 1000)});</script>`));
      case '/stream':
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.write('<!DOCTYPE html><html><head><title>streaming</title></head><body><p>first part</p>');
        return hold(id, () => res.end('<p>second part</p></body></html>'));
      case '/cookies':
        return html(
          page(
            'state',
            `<script>
          document.title = 'cookie=' + document.cookie + ';storage=' + (localStorage.getItem('seen') || '');
          document.cookie = 'visited=yes; max-age=3600'; localStorage.setItem('seen', 'yes');</script>`,
          ),
          200,
          { 'Set-Cookie': 'server=yes; Max-Age=3600; Path=/' },
        );
      case '/big': {
        const megabytes = Number(url.searchParams.get('mb') ?? 1);
        const paragraph = `<p>${ARTICLE_SENTENCE}</p>\n`;
        return html(page('Big page', paragraph.repeat(Math.ceil((megabytes * 1024 * 1024) / paragraph.length))));
      }
      case '/noise':
        // Random pixels do not compress: a full-page PNG of this is far over 25 MB.
        return html(
          page(
            'Noise',
            `<canvas id="c" width="2600" height="4000" style="display:block"></canvas><script>
          const c = document.getElementById('c').getContext('2d'); const img = c.createImageData(2600, 4000); const d = new Uint32Array(img.data.buffer);
          for (let i = 0; i < d.length; i++) d[i] = (Math.random() * 0xffffffff) | 0xff000000; c.putImageData(img, 0, 0);</script>`,
            '<style>body{margin:0}</style>',
          ),
        );
      case '/traced':
        // Traces: a fetch with credentials in its headers (the server sets a cookie the next fetch
        // sends), a 500, a request whose connection is cut, console output at four levels, an
        // uncaught exception, an in-document navigation; the title says when all of it happened.
        return html(
          page(
            'Traced',
            `<p>tracing</p><script>
          (async () => {
            await fetch('/api/ok?n=1', { headers: { Authorization: 'Bearer trace-secret-token', 'X-Trace-Test': 'visible' } });
            await fetch('/api/ok?n=2');
            await fetch('/api/fail');
            await fetch('/api/reset').catch(() => {});
            console.log('hello trace', 42);
            console.info('an info line');
            console.warn('a warning line');
            console.error('boom happened');
            setTimeout(() => { throw new Error('uncaught trace error'); }, 0);
            // Half a second after the console lines: the trace stamps events as the proxy reads them,
            // and two events a few milliseconds apart can arrive in one read with one time (the
            // dashboard spec places the console line between the failing request and this navigation).
            setTimeout(() => { location.hash = 'step-2'; document.title = 'traced-done'; }, 500);
          })();
        </script>`,
          ),
        );
      case '/traced-next':
        return html(page('Traced next', '<p>the next page</p>'));
      case '/api/ok':
        return res
          .writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': 'sid=trace-secret-cookie; Path=/' })
          .end(JSON.stringify({ ok: true, n: url.searchParams.get('n') }));
      case '/api/fail':
        return res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: false, error: 'failed on purpose' }));
      case '/api/reset':
        return req.socket.destroy();
      case '/many': {
        // A page with n subresources (images of distinct addresses, never cached between runs of
        // the same n thanks to `v`): the trace benchmark's page.
        const n = Number(url.searchParams.get('n') ?? 100);
        const v = q('v');
        const images = Array.from({ length: n }, (_, i) => `<img src="/pixel.png?v=${v}&i=${i}" width="4" height="4">`).join('');
        return html(page('Many', `<p>${n} subresources</p>${images}`));
      }
      case '/pixel.png':
        return res.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': 'no-store' }).end(pixel);
      case '/held.png':
        return hold(id, () => res.writeHead(200, { 'Content-Type': 'image/png' }).end(pixel));
      // The agent toolkit's pages (e2e/api/agent-toolkit.test.ts, e2e/api/mcp-*.test.ts).
      case '/agent/form':
        return html(
          page(
            'Sign up',
            `<h1>Sign up</h1><form action="/agent/done" method="get">
          <label>Full name <input name="name" required></label>
          <label for="email">Email</label><input id="email" name="email" type="email" placeholder="you@example.com">
          <label>Plan <select name="plan"><option value="basic">Basic</option><option value="pro">Pro</option></select></label>
          <label><input type="checkbox" name="news"> Send me news</label>
          <textarea name="note" aria-label="Note"></textarea>
          <button type="submit">Create account</button></form>`,
          ),
        );
      case '/agent/done':
        return html(
          page(
            'Welcome',
            `<h1>Thanks, ${esc(url.searchParams.get('name'))}</h1><p id="summary">email=${esc(url.searchParams.get('email'))} plan=${esc(url.searchParams.get('plan'))} news=${esc(url.searchParams.get('news') ?? 'off')} note=${esc(url.searchParams.get('note'))}</p>`,
          ),
        );
      case '/agent/cart':
        // A click that changes only text: no element appears or goes.
        return html(
          page('Shop', `<h1>Shop</h1><button onclick="document.getElementById('msg').textContent = 'Added to cart!'">Add to cart</button><p id="msg"></p>`),
        );
      case '/agent/rerender':
        // "Shuffle" replaces every item with a new element of the same text: refs of the old ones are stale.
        return html(
          page(
            'Items',
            `<div id="items"></div><button id="shuffle">Shuffle</button><p id="log"></p><script>
          let round = 0;
          function render() { round++; const box = document.getElementById('items'); box.replaceChildren();
            for (const n of [1, 2, 3]) { const b = document.createElement('button'); b.textContent = 'Item ' + n; b.onclick = () => { document.getElementById('log').textContent += 'clicked Item ' + n + ' of round ' + round + ';'; }; box.appendChild(b); } }
          render(); document.getElementById('shuffle').onclick = render;</script>`,
          ),
        );
      case '/agent/self-nav':
        // The page navigates by itself once the test opens its gate.
        return html(
          page(
            'Leaving soon',
            `<button onclick="document.title='clicked-old'">Continue</button><script>fetch('/gate/${q('id')}').then(() => { location.href = '/agent/landing'; });</script>`,
          ),
        );
      case '/agent/landing':
        return html(page('Landed', `<button onclick="document.title='clicked-new'">Continue</button>`));
      case '/agent/spa':
        return html(
          page(
            'Loader',
            `<button id="load">Load more</button><ul id="list"></ul><script>
          document.getElementById('load').onclick = async () => { const r = await fetch('/api/ok?spa=1'); const li = document.createElement('li'); const a = document.createElement('a'); a.href = '#loaded'; a.textContent = 'Loaded ' + r.status; li.appendChild(a); document.getElementById('list').appendChild(li); };</script>`,
          ),
        );
      case '/agent/covered':
        return html(
          page(
            'Covered',
            `<button onclick="document.title='clicked'">Under</button><div style="position:fixed;inset:0;background:rgba(0,0,0,.5)" id="overlay">Cookie banner</div>`,
          ),
        );
      case '/agent/large': {
        const n = Math.min(5_000, Number(url.searchParams.get('n') ?? 1000));
        const rows = Array.from({ length: n }, (_, i) =>
          i % 4 === 0
            ? `<a href="/agent/item/${i}">Product ${i}: a reasonably long product title</a>`
            : i % 4 === 1
              ? `<button>Add product ${i} to cart</button>`
              : i % 4 === 2
                ? `<input aria-label="Quantity of product ${i}" value="1">`
                : `<label><input type="checkbox"> Compare product ${i}</label>`,
        );
        return html(page('Catalogue', `<h1>Catalogue</h1>${rows.map((r) => `<div>${r}</div>`).join('')}`));
      }
      case '/hang':
        return hold(id || 'hang', () => html(page('late', 'too late')));
      default:
        if (gate) return hold(id, () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('open'));
        if (/^\/redirect\/\d+$/.test(url.pathname)) {
          const n = Number(url.pathname.split('/')[2]);
          return res.writeHead(302, { Location: n > 1 ? `/redirect/${n - 1}` : '/basic' }).end();
        }
        if (/^\/fixtures\/[\w-]+\.html$/.test(url.pathname)) {
          return html(readFileSync(path.join(FIXTURE_PAGES, path.basename(url.pathname)), 'utf8'));
        }
        return html(page('Not found', 'no such test page'), 404);
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  const release = (id: string) => {
    released.add(id);
    const pending = held.get(id) ?? [];
    held.delete(id);
    pending.forEach((finish) => finish());
  };

  return {
    url: `http://127.0.0.1:${port}`,
    release,
    requests: (id) => seen.get(id) ?? [],
    seen(id, pathname, timeoutMs = 15_000) {
      const already = (seen.get(id) ?? []).find((r) => r.path === pathname);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const waiter = {
          id,
          pathname,
          resolve: (r: SeenRequest) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`the site saw no ${pathname} for ${id} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    async close() {
      for (const id of [...held.keys()]) release(id);
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
