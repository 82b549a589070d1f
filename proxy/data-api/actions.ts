// The three endpoint actions (docs/connect.md, "Data API"). Each runs on a page that has been navigated
// and waited on (visit.ts) and returns the response to send; the wrapper checks its size.
import { errors, type Page } from 'playwright-core';
import type { RuntimeProvider } from '../config/router-store';
import { DataApiError, invalidRequest } from './errors';
import { extract } from './page-scripts';
import type { ContentRequest, PageRequest, ScrapeRequest, ScreenshotRequest } from '../../lib/data-api/schemas';
import { browserMessage, type Visit } from './visit';

export interface ActionInput<R> {
  request: R;
  visit: Visit;
  provider: RuntimeProvider;
  /** performance.now() when the HTTP request arrived. */
  startedAt: number;
}

export interface Reply {
  body: Buffer;
  headers: Record<string, string>;
}

const ms = (value: number) => Math.round(value);

export async function screenshotAction({ request, visit, provider, startedAt }: ActionInput<ScreenshotRequest>): Promise<Reply> {
  const image = await capture(visit.page, request, request.format);
  return {
    body: image,
    headers: {
      'Content-Type': request.format === 'png' ? 'image/png' : 'image/jpeg',
      'X-Response-Code': String(visit.statusCode),
      'X-Response-URL': visit.page.url(),
      'X-Timing-Total-Ms': String(ms(performance.now() - startedAt)),
      'X-Timing-Navigation-Ms': String(ms(visit.navigationMs)),
      'X-Provider-Slug': provider.slug,
    },
  };
}

export async function contentAction({ request, visit, provider, startedAt }: ActionInput<ContentRequest>): Promise<Reply> {
  const actionStarted = performance.now();
  const extracted = await extractOrFail(visit.page, { formats: request.formats, metadata: true, links: true });
  const data = { url: visit.page.url(), statusCode: visit.statusCode, content: extracted.content, metadata: extracted.metadata, links: extracted.links };
  return json(provider, data, { total: ms(performance.now() - startedAt), navigation: ms(visit.navigationMs), action: ms(performance.now() - actionStarted) });
}

/**
 * Each selector result is `{ text, html }` plus `attribute` (the value, or null when the element
 * lacks it) when the selector named one. `screenshot: true` adds `data.screenshot`, a base64 JPEG.
 */
export async function scrapeAction({ request, visit, provider, startedAt }: ActionInput<ScrapeRequest>): Promise<Reply> {
  const actionStarted = performance.now();
  const extracted = await extractOrFail(visit.page, { formats: request.formats, selectors: request.selectors ?? [] });
  if (extracted.invalidSelectors.length > 0) {
    const details = extracted.invalidSelectors.map((i) => ({ field: `selectors.${i}.selector`, message: 'is not a valid CSS selector' }));
    throw invalidRequest(details);
  }
  const data: Record<string, unknown> = {
    url: visit.page.url(),
    statusCode: visit.statusCode,
    selectors: extracted.selectors ?? [],
    content: extracted.content,
  };
  if (request.screenshot) data.screenshot = (await capture(visit.page, request, 'jpeg')).toString('base64');
  return json(provider, data, { total: ms(performance.now() - startedAt), navigation: ms(visit.navigationMs), action: ms(performance.now() - actionStarted) });
}

function json(provider: RuntimeProvider, data: unknown, timings: { total: number; navigation: number; action: number }): Reply {
  return {
    body: Buffer.from(JSON.stringify({ success: true, provider: provider.slug, data, timings })),
    headers: { 'Content-Type': 'application/json', 'X-Provider-Slug': provider.slug },
  };
}

async function extractOrFail(page: Page, options: Parameters<typeof extract>[1]) {
  try {
    return await extract(page, options);
  } catch (error) {
    throw new DataApiError(500, `reading the page failed: ${browserMessage(error)}`);
  }
}

/** The screenshot options of the shared schema; scrape always captures a JPEG. */
export async function capture(page: Page, request: PageRequest, type: 'png' | 'jpeg'): Promise<Buffer> {
  const options = {
    type,
    quality: type === 'jpeg' ? request.quality : undefined,
    omitBackground: type === 'png' && request.omitBackground,
    timeout: request.timeout,
  };
  try {
    if (request.selector) {
      const element = await page.$(`css=${request.selector}`);
      if (!element)
        throw new DataApiError(400, `selector "${request.selector}" matched no element on the page`, {}, [
          { field: 'selector', message: 'matched no element on the page' },
        ]);
      return await element.screenshot(options);
    }
    return await page.screenshot({ ...options, fullPage: request.fullPage, clip: request.clip });
  } catch (error) {
    if (error instanceof DataApiError) throw error;
    if (error instanceof errors.TimeoutError) throw new DataApiError(408, `the screenshot did not complete within ${request.timeout} ms`);
    throw new DataApiError(500, `the screenshot failed: ${browserMessage(error)}`);
  }
}
