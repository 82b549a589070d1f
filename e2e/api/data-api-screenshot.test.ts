// POST /v1/screenshot against a real Chromium provider: each option changes the image or what the
// test site receives, so an ignored option fails its test.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { newUser } from '../support/api';
import { launchChromium, type Chromium } from '../support/chromium';
import { routerKey } from '../support/connect';
import { dataApi, expectStatus } from '../support/data-api';
import { imageSize, isJpeg, isPng, jpegSize, pngPixels, pngSize } from '../support/images';
import { addProvider } from '../support/providers';
import { startTestSite, type TestSite } from '../support/test-site';
import { settings } from '../../lib/config/settings';

let browser: Chromium;
let site: TestSite;
let key: string;
const uid = () => Math.random().toString(36).slice(2, 10);

before(async () => {
  [browser, site] = await Promise.all([launchChromium(), startTestSite()]);
  const user = await newUser('shot');
  await addProvider(user.workspaceId, user.routerId, { slug: 'chromium', url: browser.wsUrl });
  key = await routerKey(user.workspaceId, user.routerId);
});
after(async () => {
  await Promise.all([browser?.stop(), site?.close()]);
});

const shot = (body: Record<string, unknown>) => dataApi('screenshot', key, { url: `${site.url}/basic`, ...body });

test('defaults: a 1280×720 PNG with the response headers of docs/connect.md', async () => {
  const res = expectStatus(await shot({}), 200);
  assert.equal(res.headers['content-type'], 'image/png');
  assert.ok(isPng(res.body));
  assert.deepEqual(pngSize(res.body), { width: 1280, height: 720 });
  assert.equal(res.headers['x-response-code'], '200');
  assert.equal(res.headers['x-response-url'], `${site.url}/basic`);
  assert.equal(res.headers['x-provider-slug'], 'chromium');
  const total = Number(res.headers['x-timing-total-ms']);
  const navigation = Number(res.headers['x-timing-navigation-ms']);
  assert.ok(Number.isInteger(total) && Number.isInteger(navigation) && navigation >= 0 && total >= navigation, `total ${total}, navigation ${navigation}`);
});

test('redirects are followed: X-Response-URL is the final address; a 404 page is still a 200 call with X-Response-Code 404', async () => {
  const redirected = expectStatus(await shot({ url: `${site.url}/redirect/3` }), 200);
  assert.equal(redirected.headers['x-response-url'], `${site.url}/basic`);
  assert.equal(redirected.headers['x-response-code'], '200');
  const missing = expectStatus(await shot({ url: `${site.url}/missing` }), 200);
  assert.equal(missing.headers['x-response-code'], '404');
});

test('viewport sets the image size; fullPage captures the whole scrollable height', async () => {
  assert.deepEqual(pngSize(expectStatus(await shot({ viewport: { width: 400, height: 300 } }), 200).body), { width: 400, height: 300 });
  const full = expectStatus(await shot({ url: `${site.url}/tall`, viewport: { width: 500, height: 400 }, fullPage: true }), 200);
  const size = pngSize(full.body);
  assert.ok(size.width <= 500 && size.width >= 480, `width ${size.width} (the provider may show a scrollbar)`);
  assert.ok(size.height > 3000, `full page height ${size.height}`);
});

test('clip captures the region; selector crops to the element', async () => {
  assert.deepEqual(pngSize(expectStatus(await shot({ clip: { x: 10, y: 20, width: 123, height: 45 } }), 200).body), { width: 123, height: 45 });
  const element = expectStatus(await shot({ selector: '#box' }), 200);
  assert.deepEqual(pngSize(element.body), { width: 200, height: 100 });
  const pixels = pngPixels(element.body);
  assert.deepEqual(pixels.pixel(100, 50).slice(0, 3), [200, 30, 30], 'the crop is the red box');
  const none = expectStatus(await shot({ selector: '#nope' }), 400);
  assert.deepEqual(none.json.details, [{ field: 'selector', message: 'matched no element on the page' }]);
});

test('format jpeg; quality changes the JPEG size', async () => {
  const body = { url: `${site.url}/tall`, format: 'jpeg', viewport: { width: 800, height: 600 } };
  const low = expectStatus(await dataApi('screenshot', key, { ...body, quality: 5 }), 200);
  const high = expectStatus(await dataApi('screenshot', key, { ...body, quality: 100 }), 200);
  assert.equal(low.headers['content-type'], 'image/jpeg');
  assert.ok(isJpeg(low.body) && isJpeg(high.body));
  assert.deepEqual(jpegSize(high.body), { width: 800, height: 600 });
  assert.ok(high.body.length > low.body.length * 2, `quality 100: ${high.body.length} bytes, quality 5: ${low.body.length} bytes`);
});

test('omitBackground yields transparent pixels; without it the page background is opaque', async () => {
  const transparent = pngPixels(expectStatus(await shot({ omitBackground: true, viewport: { width: 300, height: 200 } }), 200).body);
  assert.equal(transparent.pixel(290, 190)[3], 0, 'the corner is transparent');
  assert.equal(transparent.pixel(100, 100)[3], 255, 'the red box stays opaque');
  const opaque = pngPixels(expectStatus(await shot({ viewport: { width: 300, height: 200 } }), 200).body);
  assert.deepEqual(opaque.pixel(290, 190), [255, 255, 255, 255]);
});

test('quality with a PNG and omitBackground with a JPEG are ignored, not refused (the contract scopes them)', async () => {
  const png = expectStatus(await shot({ quality: 5, viewport: { width: 300, height: 200 } }), 200);
  assert.equal(png.headers['content-type'], 'image/png');
  assert.deepEqual(pngPixels(png.body).pixel(290, 190), [255, 255, 255, 255], 'an ordinary opaque PNG');
  const jpeg = expectStatus(await shot({ format: 'jpeg', omitBackground: true, viewport: { width: 300, height: 200 } }), 200);
  assert.ok(isJpeg(jpeg.body));
  assert.deepEqual(jpegSize(jpeg.body), { width: 300, height: 200 });
});

test('userAgent is applied to the request and to navigator.userAgent; headers arrive at the site', async () => {
  const id = uid();
  const userAgent = `DataApiTest/${id}`;
  expectStatus(await shot({ url: `${site.url}/echo?id=${id}`, userAgent, headers: { 'X-Test-Header': `value-${id}`, 'Accept-Language': 'fr-CH' } }), 200);
  const [request] = site.requests(id);
  assert.equal(request!.headers['user-agent'], userAgent);
  assert.equal(request!.headers['x-test-header'], `value-${id}`);
  assert.match(String(request!.headers['accept-language']), /^fr-CH/);
  const content = expectStatus(await dataApi('content', key, { url: `${site.url}/echo?id=${uid()}`, userAgent, formats: ['text'] }), 200);
  assert.match(content.json.data.content.text, new RegExp(`DataApiTest/${id}`));
});

test('waitForSelector waits for a late element, and is capped at DATA_API_WAIT_FOR_SELECTOR_CAP_MS (10 s in production) whatever `timeout` says', async () => {
  const id = uid();
  const pending = shot({ url: `${site.url}/late?id=${id}`, waitForSelector: '#late', selector: '#late' });
  await site.seen(id, `/gate/${id}`);
  site.release(id);
  const res = expectStatus(await pending, 200);
  assert.ok(pngSize(res.body).height > 0);
  // Without waiting the element is not there yet (its gate is still closed).
  const early = await shot({ url: `${site.url}/late?id=${uid()}`, selector: '#late' });
  assert.equal(early.status, 400);

  // The stack runs the cap short (its production value is a unit test of lib/config/durations.ts).
  const capMs = settings().dataApiWaitForSelectorCapMs;
  const timeout = 60_000;
  assert.ok(capMs < timeout, 'the cap, not the timeout, ends the wait');
  const started = Date.now();
  const capped = expectStatus(await shot({ url: `${site.url}/late?id=${uid()}`, waitForSelector: '#late', timeout }), 408);
  const waited = Date.now() - started;
  assert.ok(waited >= capMs - 500 && waited < capMs + 10_000, `waited ${waited} ms`);
  assert.match(capped.json.error, new RegExp(`waitForSelector "#late" did not appear within ${capMs} ms`));
});

test('scrollPage scrolls through and triggers lazy images below the fold', async () => {
  const lazy = uid();
  expectStatus(await shot({ url: `${site.url}/lazy?id=${lazy}`, scrollPage: true }), 200);
  const loaded = site.requests(lazy).filter((r) => r.path === '/pixel.png').length;
  assert.equal(loaded, 2, 'native lazy and IntersectionObserver images were requested');
  const still = uid();
  expectStatus(await shot({ url: `${site.url}/lazy?id=${still}` }), 200);
  assert.equal(site.requests(still).filter((r) => r.path === '/pixel.png').length, 0, 'without scrollPage nothing below the fold loads');
});

test('a full-page PNG over 25 MB is 413', async () => {
  // About 30 MB of incompressible pixels; encoding takes seconds, more on a busy machine.
  const res = expectStatus(await shot({ url: `${site.url}/noise`, fullPage: true, viewport: { width: 2600, height: 1000 }, timeout: 120_000 }), 413);
  assert.equal(res.json.success, false);
  assert.match(res.json.error, /over this endpoint's cap of 25 MB/);
  // The same page cropped is fine: the cap is on the response, not the page.
  assert.deepEqual(imageSize(expectStatus(await shot({ url: `${site.url}/noise`, clip: { x: 0, y: 0, width: 100, height: 100 } }), 200).body), {
    width: 100,
    height: 100,
  });
});
