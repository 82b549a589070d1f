// Copy-paste snippets for the Connect tab. Each takes the full connect URL (key included).

export interface ConnectOptions {
  provider: string;
  profile: string;
  readOnly: boolean;
  record: boolean;
  observability: boolean;
}

export const KEY_PLACEHOLDER = '<ROUTER_KEY>';

/** ws(s)://<proxy>/v1/connect?token=…&provider=…: the query parameters of docs/connect.md, in a readable order. */
export function connectUrl(proxyUrl: string, key: string | null, options: ConnectOptions): string {
  const params = [`token=${key ?? KEY_PLACEHOLDER}`];
  if (options.provider) params.push(`provider=${encodeURIComponent(options.provider)}`);
  if (options.profile.trim()) {
    params.push(`profile=${encodeURIComponent(options.profile.trim())}`);
    if (options.readOnly) params.push('readOnly=1');
  }
  if (options.record) params.push('session_record=true');
  if (options.observability) params.push('observability=true');
  return `${proxyUrl}/v1/connect?${params.join('&')}`;
}

/** What a snippet is written from: the connect URL, the proxy's HTTP address and the key's header. */
interface SnippetInput {
  url: string;
  httpUrl: string;
  bearer: string;
}

/** The snippets in the order the tab shows them; each writes its code from the input. */
const SNIPPETS: { id: string; title: string; code: (input: SnippetInput) => string }[] = [
  {
    id: 'playwright',
    title: 'Playwright (Node.js)',
    code: ({ url }) => `import { chromium } from 'playwright-core';

const browser = await chromium.connectOverCDP('${url}');
const context = browser.contexts()[0] ?? (await browser.newContext());
const page = await context.newPage();
await page.goto('https://example.com');
console.log(await page.title());
await browser.close();`,
  },
  {
    id: 'playwright-python',
    title: 'Playwright (Python)',
    code: ({ url }) => `from playwright.sync_api import sync_playwright

with sync_playwright() as p:
    browser = p.chromium.connect_over_cdp("${url}")
    context = browser.contexts[0] if browser.contexts else browser.new_context()
    page = context.new_page()
    page.goto("https://example.com")
    print(page.title())
    browser.close()`,
  },
  {
    id: 'puppeteer',
    title: 'Puppeteer',
    code: ({ url }) => `import puppeteer from 'puppeteer-core';

const browser = await puppeteer.connect({ browserWSEndpoint: '${url}' });
const page = await browser.newPage();
await page.goto('https://example.com');
console.log(await page.title());
// disconnect(), not close(): close() would end the provider's browser.
await browser.disconnect();`,
  },
  {
    id: 'cdp',
    title: 'Raw CDP (Node.js, ws)',
    code: ({ url }) => `import WebSocket from 'ws';

const ws = new WebSocket('${url}');
ws.on('upgrade', (res) => console.log('session', res.headers['x-session-id'], 'on', res.headers['x-provider']));
ws.on('unexpected-response', (_req, res) => {
  // Refusals come before the WebSocket opens, as an HTTP status with a plain-text reason.
  res.setEncoding('utf8');
  res.on('data', (text) => console.error(res.statusCode, text));
});
ws.on('open', () => ws.send(JSON.stringify({ id: 1, method: 'Browser.getVersion' })));
ws.on('message', (data) => {
  console.log(JSON.parse(data.toString()));
  ws.close();
});`,
  },
  {
    id: 'websocat',
    title: 'Raw CDP (websocat)',
    code: ({ url }) => `# Type {"id":1,"method":"Browser.getVersion"} and press Enter
websocat '${url}'`,
  },
  {
    // docs/connect.md, Data API: one browser action per HTTP call, with the same key.
    id: 'data-api',
    title: 'Data API (curl)',
    code: ({ httpUrl, bearer }) => `# A screenshot of a page, saved as page.png
curl -X POST ${httpUrl}/v1/screenshot \\
  -H '${bearer}' -H 'Content-Type: application/json' \\
  -d '{"url":"https://example.com"}' -o page.png

# The page's content as Markdown
curl -X POST ${httpUrl}/v1/content \\
  -H '${bearer}' -H 'Content-Type: application/json' \\
  -d '{"url":"https://example.com","formats":["markdown"]}'`,
  },
  {
    id: 'status',
    title: 'Provider status (curl)',
    code: ({ httpUrl, bearer }) => `curl -H '${bearer}' ${httpUrl}/v1/status`,
  },
];

export function snippets(url: string, proxyUrl: string, key: string | null) {
  const input = { url, httpUrl: proxyUrl.replace(/^ws/, 'http'), bearer: `Authorization: Bearer ${key ?? KEY_PLACEHOLDER}` };
  return SNIPPETS.map(({ id, title, code }) => ({ id, title, code: code(input) }));
}
