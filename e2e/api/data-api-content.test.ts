// POST /v1/content and /v1/scrape against a real Chromium provider: the response shapes of docs/connect.md,
// every format, the waits (waitUntil variants, waitForTimeout) and the body caps.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { routerKey } from '../support/connect';
import { dataApi, expectStatus } from '../support/data-api';
import { isJpeg, jpegSize } from '../support/images';
import { addProvider } from '../support/providers';
import { ARTICLE_SENTENCE, startTestSite, type TestSite } from '../support/test-site';

let browser: Chromium;
let site: TestSite;
let key: string;
const uid = () => Math.random().toString(36).slice(2, 10);

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  const user = await newUser('content');
  await addProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: browser.wsUrl });
  key = await routerKey(user.workspaceId, user.routerId);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

const content = (body: Record<string, unknown>) => dataApi('content', key, { url: `${site.url}/basic`, ...body });
const titleOf = async (body: Record<string, unknown>) => expectStatus(await content({ formats: ['text'], ...body }), 200).json.data.metadata.title as string;

test('content: the default is markdown, in the response shape of docs/connect.md', async () => {
  const res = expectStatus(await content({ profile: 'ignored-profile' }), 200);
  assert.equal(res.headers['x-provider-slug'], 'chromium');
  const body = res.json;
  assert.deepEqual(Object.keys(body).sort(), ['data', 'provider', 'success', 'timings']);
  assert.equal(body.success, true);
  assert.equal(body.provider, 'chromium');
  assert.deepEqual(Object.keys(body.data).sort(), ['content', 'links', 'metadata', 'statusCode', 'url']);
  assert.equal(body.data.url, `${site.url}/basic`);
  assert.equal(body.data.statusCode, 200);
  assert.deepEqual(Object.keys(body.data.content), ['markdown']);
  assert.match(body.data.content.markdown, /^# Hello from the test site$/m);
  assert.match(body.data.content.markdown, new RegExp(`\\[a relative link\\]\\(${site.url}/missing\\)`), 'links are absolute');
  assert.deepEqual(body.data.metadata, { title: 'Basic page', description: 'A small page for the data API tests.' });
  assert.deepEqual(body.data.links, [
    { url: `${site.url}/missing`, text: 'a relative link' },
    { url: 'https://example.test/elsewhere', text: 'an absolute one' },
  ]);
  assert.deepEqual(Object.keys(body.timings).sort(), ['action', 'navigation', 'total']);
  for (const ms of Object.values(body.timings)) assert.ok(Number.isInteger(ms) && (ms as number) >= 0);
  assert.ok(body.timings.total >= body.timings.navigation + body.timings.action);
});

test('content: html, text and readability; readability keeps the article and drops navigation and ads', async () => {
  const basic = expectStatus(await content({ formats: ['html', 'text'] }), 200).json.data.content;
  assert.deepEqual(Object.keys(basic).sort(), ['html', 'text']);
  assert.match(basic.html, /^<!DOCTYPE html><html><head>/);
  assert.match(basic.html, /<div id="box"><\/div>/);
  assert.match(basic.text, /Hello from the test site\n/);
  assert.doesNotMatch(basic.text, /<h1>/);

  const article = expectStatus(await content({ url: `${site.url}/fixtures/article.html`, formats: ['readability', 'markdown'] }), 200).json.data.content;
  assert.ok(article.readability.includes(ARTICLE_SENTENCE.slice(0, 60)), article.readability.slice(0, 300));
  assert.doesNotMatch(article.readability, /Subscribe now|Sponsored|Main menu/);
  assert.match(article.markdown, /Sponsored/, 'markdown is the whole visible page');
  assert.doesNotMatch(article.markdown, /hidden newsletter popup/, 'what CSS hides is not in the markdown');
});

test('content: redirects and non-200 pages report the final URL and the page status', async () => {
  const redirected = expectStatus(await content({ url: `${site.url}/redirect/2` }), 200).json.data;
  assert.equal(redirected.url, `${site.url}/basic`);
  const missing = expectStatus(await content({ url: `${site.url}/missing` }), 200).json.data;
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.metadata.title, 'Not here');
  assert.equal(missing.metadata.description, null);
});

test('waitUntil: domcontentloaded does not wait for images, load does', async () => {
  const early = uid();
  assert.equal(await titleOf({ url: `${site.url}/slow-image?id=${early}` }), 'parsing', 'the default returned while the image was held');
  site.release(early);
  const late = uid();
  const pending = titleOf({ url: `${site.url}/slow-image?id=${late}`, waitUntil: 'load' });
  await site.seen(late, '/held.png');
  site.release(late);
  assert.equal(await pending, 'loaded');
});

test('waitUntil: networkidle waits for requests made after load; commit returns before the document is complete', async () => {
  const atLoad = uid();
  assert.equal(await titleOf({ url: `${site.url}/after-load?id=${atLoad}`, waitUntil: 'load' }), 'loaded');
  site.release(atLoad);
  const idle = uid();
  const pending = titleOf({ url: `${site.url}/after-load?id=${idle}`, waitUntil: 'networkidle' });
  await site.seen(idle, `/gate/${idle}`);
  site.release(idle);
  assert.equal(await pending, 'idle-done');

  const stream = uid();
  const committed = expectStatus(await content({ url: `${site.url}/stream?id=${stream}`, waitUntil: 'commit', formats: ['html'] }), 200).json.data;
  assert.equal(committed.statusCode, 200);
  assert.doesNotMatch(committed.content.html, /second part/, 'answered while the site still held the rest of the page');
  site.release(stream);
});

test('waitForTimeout waits the extra time after load', async () => {
  const started = Date.now();
  assert.equal(await titleOf({ url: `${site.url}/delayed-title?ms=800`, waitForTimeout: 2_000 }), 'later');
  assert.ok(Date.now() - started >= 2_000);
});

test('scrape: selectors with and without attribute, formats, and a base64 JPEG screenshot', async () => {
  const res = expectStatus(
    await dataApi('scrape', key, {
      url: `${site.url}/basic`,
      selectors: [
        { name: 'links', selector: 'p a', attribute: 'href' },
        { name: 'heading', selector: 'h1' },
        { name: 'absent', selector: '.nothing' },
        { name: 'no-attr', selector: 'h1', attribute: 'data-x' },
      ],
      formats: ['text'],
      screenshot: true,
      viewport: { width: 640, height: 480 },
      quality: 50,
    }),
    200,
  );
  const body = res.json;
  assert.equal(body.success, true);
  assert.equal(body.provider, 'chromium');
  assert.deepEqual(Object.keys(body.data).sort(), ['content', 'screenshot', 'selectors', 'statusCode', 'url']);
  assert.deepEqual(body.data.selectors[0], {
    name: 'links',
    selector: 'p a',
    results: [
      { text: 'a relative link', html: 'a relative link', attribute: '/missing' },
      { text: 'an absolute one', html: 'an absolute one', attribute: 'https://example.test/elsewhere' },
    ],
  });
  assert.deepEqual(body.data.selectors[1].results, [{ text: 'Hello from the test site', html: 'Hello from the test site' }]);
  assert.deepEqual(body.data.selectors[2].results, []);
  assert.deepEqual(body.data.selectors[3].results, [{ text: 'Hello from the test site', html: 'Hello from the test site', attribute: null }]);
  assert.match(body.data.content.text, /Hello from the test site/);
  const image = Buffer.from(body.data.screenshot, 'base64');
  assert.ok(isJpeg(image));
  assert.deepEqual(jpegSize(image), { width: 640, height: 480 });
  assert.deepEqual(Object.keys(body.timings).sort(), ['action', 'navigation', 'total']);

  const clipped = expectStatus(
    await dataApi('scrape', key, {
      url: `${site.url}/basic`,
      selectors: [{ name: 'h', selector: 'h1' }],
      screenshot: true,
      clip: { x: 0, y: 0, width: 90, height: 70 },
    }),
    200,
  ).json.data;
  assert.deepEqual(jpegSize(Buffer.from(clipped.screenshot, 'base64')), { width: 90, height: 70 }, 'the shared screenshot options shape the scrape screenshot');

  const plain = expectStatus(await dataApi('scrape', key, { url: `${site.url}/basic`, formats: ['markdown'] }), 200).json.data;
  assert.deepEqual(plain.selectors, []);
  assert.equal(plain.screenshot, undefined);
});

test('scrape: a selector the browser cannot parse is 400 naming it; neither selectors nor formats is 400', async () => {
  const bad = expectStatus(
    await dataApi('scrape', key, {
      url: `${site.url}/basic`,
      selectors: [
        { name: 'ok', selector: 'h1' },
        { name: 'bad', selector: 'p >> a' },
      ],
    }),
    400,
  );
  assert.deepEqual(bad.json.details, [{ field: 'selectors.1.selector', message: 'is not a valid CSS selector' }]);
  const empty = expectStatus(await dataApi('scrape', key, { url: `${site.url}/basic` }), 400);
  assert.deepEqual(empty.json.details, [{ field: 'selectors', message: 'give selectors, formats or both' }]);
});

test('body caps: content over 10 MB and scrape over 5 MB are 413; under the cap they are served', async () => {
  // Pages of 4 to 11 MB of text: a loaded two-core machine lays them out in more than the default
  // 30 s (a 408), so these calls take the longest timeout the API allows, as a user would.
  const timeout = 120_000;
  const big = expectStatus(await content({ url: `${site.url}/big?mb=11`, formats: ['html'], timeout }), 413);
  assert.equal(big.json.success, false);
  assert.match(big.json.error, /cap of 10 MB/);
  const scraped = expectStatus(await dataApi('scrape', key, { url: `${site.url}/big?mb=6`, formats: ['html'], timeout }), 413);
  assert.match(scraped.json.error, /cap of 5 MB/);
  const fits = expectStatus(await dataApi('scrape', key, { url: `${site.url}/big?mb=4`, formats: ['html'], timeout }), 200);
  assert.ok(fits.body.length > 4 * 1024 * 1024);
});
