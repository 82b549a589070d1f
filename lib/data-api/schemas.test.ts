// The data API's request schemas: the defaults and ranges of docs/connect.md, and the cross-field rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentSchema, scrapeSchema, screenshotSchema } from './schemas';

const url = 'https://example.test/page';
const fields = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((i) => i.path.join('.')).sort();

test('screenshot defaults follow docs/connect.md', () => {
  assert.deepEqual(screenshotSchema.parse({ url }), {
    url,
    format: 'png',
    fullPage: false,
    viewport: { width: 1280, height: 720 },
    omitBackground: false,
    scrollPage: false,
    waitUntil: 'domcontentloaded',
    timeout: 30_000,
  });
});

test('ranges: timeout 1000–120000, waitForTimeout 0–30000, quality 0–100', () => {
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, timeout: 999 })), ['timeout']);
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, timeout: 120_001 })), ['timeout']);
  assert.ok(screenshotSchema.safeParse({ url, timeout: 1_000, waitForTimeout: 0 }).success);
  assert.ok(screenshotSchema.safeParse({ url, timeout: 120_000, waitForTimeout: 30_000 }).success);
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, waitForTimeout: 30_001 })), ['waitForTimeout']);
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, format: 'jpeg', quality: 101 })), ['quality']);
  assert.ok(screenshotSchema.safeParse({ url, format: 'jpeg', quality: 0 }).success);
});

test('only http(s) URLs; unknown fields are named', () => {
  for (const bad of ['file:///etc/passwd', 'chrome://settings', 'data:text/html,x', 'example.test', ''])
    assert.deepEqual(fields(screenshotSchema.safeParse({ url: bad })), ['url'], bad);
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, fullpage: true })), ['']);
});

test('cross-field rules: selector alone; quality with PNG and omitBackground with JPEG are taken (and ignored), not refused', () => {
  assert.equal(screenshotSchema.parse({ url, quality: 80 }).quality, 80);
  assert.equal(screenshotSchema.parse({ url, format: 'jpeg', omitBackground: true }).omitBackground, true);
  assert.ok(contentSchema.safeParse({ url, quality: 80, omitBackground: true }).success);
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, selector: '#a', clip: { x: 0, y: 0, width: 1, height: 1 }, fullPage: true })), [
    'clip',
    'fullPage',
  ]);
});

test('headers: valid names, no line breaks, not the ones the browser owns', () => {
  assert.ok(screenshotSchema.safeParse({ url, headers: { 'X-Ok': 'yes', 'Accept-Language': 'de' } }).success);
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, headers: { 'X Bad': 'x' } })), ['headers.X Bad']);
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, headers: { 'X-Split': 'a\r\nInjected: 1' } })), ['headers.X-Split']);
  assert.deepEqual(fields(screenshotSchema.safeParse({ url, headers: { Host: 'other.test' } })), ['headers.Host']);
});

test('content: formats default to markdown and are de-duplicated', () => {
  assert.deepEqual(contentSchema.parse({ url }).formats, ['markdown']);
  assert.deepEqual(contentSchema.parse({ url, formats: ['text', 'html', 'text'] }).formats, ['text', 'html']);
  assert.deepEqual(fields(contentSchema.safeParse({ url, formats: [] })), ['formats']);
});

test('scrape: selectors or formats; unique names; quality applies to its JPEG screenshot', () => {
  assert.deepEqual(fields(scrapeSchema.safeParse({ url })), ['selectors']);
  assert.ok(scrapeSchema.safeParse({ url, formats: ['text'] }).success);
  assert.ok(scrapeSchema.safeParse({ url, selectors: [{ name: 'a', selector: 'a', attribute: 'href' }], screenshot: true, quality: 40 }).success);
  assert.deepEqual(
    fields(
      scrapeSchema.safeParse({
        url,
        selectors: [
          { name: 'a', selector: 'a' },
          { name: 'a', selector: 'b' },
        ],
      }),
    ),
    ['selectors.1.name'],
  );
  assert.ok(scrapeSchema.safeParse({ url, formats: ['text'], omitBackground: true }).success);
  assert.equal(scrapeSchema.parse({ url, formats: ['text'] }).screenshot, false);
});
