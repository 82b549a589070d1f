// The part every data-API call shares once it has a fresh browser context: open a page, navigate,
// then the optional waits in the spec's order (waitForSelector, scrollPage, waitForTimeout).
import { errors, type BrowserContextOptions, type Page } from 'playwright-core';
import { firstLine } from './browser-connections';
import { pageScript } from './page-scripts';
import { DataApiError } from './errors';
import { settings } from '../../lib/config/settings';
import type { PageRequest } from '../../lib/data-api/schemas';

export interface Visit {
  page: Page;
  /** HTTP status of the navigated page (after redirects); 0 when there was no HTTP response. */
  statusCode: number;
  navigationMs: number;
}

/** What the context is created with: applied by the browser to every request and page. */
export function contextOptions(request: PageRequest): BrowserContextOptions {
  return {
    viewport: request.viewport,
    userAgent: request.userAgent,
    extraHTTPHeaders: request.headers,
    // Nothing a page downloads lands on the provider's disk.
    acceptDownloads: false,
  };
}

export async function visit(page: Page, request: PageRequest): Promise<Visit> {
  const started = performance.now();
  let statusCode = 0;
  try {
    const response = await page.goto(request.url, { waitUntil: request.waitUntil, timeout: request.timeout });
    statusCode = response?.status() ?? 0;
  } catch (error) {
    if (error instanceof errors.TimeoutError) throw new DataApiError(408, `the page did not reach "${request.waitUntil}" within ${request.timeout} ms`);
    throw new DataApiError(500, `navigation failed: ${browserMessage(error)}`);
  }
  const navigationMs = performance.now() - started;

  if (request.waitForSelector) {
    // docs/connect.md: at most 10 s (the setting's default), and never past the call's `timeout`.
    const timeout = Math.min(settings().dataApiWaitForSelectorCapMs, request.timeout);
    try {
      await page.waitForSelector(`css=${request.waitForSelector}`, { timeout });
    } catch (error) {
      if (error instanceof errors.TimeoutError) throw new DataApiError(408, `waitForSelector "${request.waitForSelector}" did not appear within ${timeout} ms`);
      throw error;
    }
  }
  if (request.scrollPage) await scrollThrough(page, request.timeout);
  if (request.waitForTimeout) await page.waitForTimeout(request.waitForTimeout);
  return { page, statusCode, navigationMs };
}

async function scrollThrough(page: Page, timeoutMs: number): Promise<void> {
  await page.evaluate(`(${pageScript('scroll')})(${Math.min(timeoutMs, 15_000)})`);
}

export function browserMessage(error: unknown): string {
  return firstLine(String((error as Error)?.message ?? error).replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, ''));
}
