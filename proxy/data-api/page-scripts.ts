// Code that runs inside the provider's page. It is kept as plain JavaScript files and sent as text:
// a TypeScript function passed to page.evaluate would carry the transpiler's helpers (`__name`)
// that do not exist in the page. Extraction runs in an isolated world (own globals and prototypes,
// shared DOM), so a page that patches Array.prototype or defines `module` cannot break it, and the
// page's Content-Security-Policy does not apply to it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const scripts = new Map<string, string>();

export function pageScript(name: 'scroll' | 'extract'): string {
  let source = scripts.get(name);
  if (!source) {
    source = readFileSync(new URL(`./page-scripts/${name}.js`, import.meta.url), 'utf8');
    scripts.set(name, source);
  }
  return source;
}

/** CommonJS/UMD library sources wrapped so that each evaluates to its `module.exports`. */
const asModule = (file: string) =>
  `(function () { var module = { exports: {} }; var exports = module.exports;\n${readFileSync(require.resolve(file), 'utf8')}\n;return module.exports; })()`;

let libraries: string | null = null;
function librarySource(): string {
  libraries ??= `{ Readability: ${asModule('@mozilla/readability/Readability.js')}, TurndownService: ${asModule('turndown/lib/turndown.browser.umd.js')}, gfm: ${asModule('@joplin/turndown-plugin-gfm')} }`;
  return libraries;
}

export interface ExtractOptions {
  formats?: string[];
  metadata?: boolean;
  links?: boolean;
  selectors?: { name: string; selector: string; attribute?: string }[];
}

export interface Extracted {
  content: Record<string, string>;
  metadata?: { title: string; description: string | null };
  links?: { url: string; text: string }[];
  selectors?: { name: string; selector: string; results: { text: string; html: string; attribute?: string | null }[] }[];
  invalidSelectors: number[];
}

/** The expression that extracts from a page's document; run it in an isolated world (the agent toolkit does too). */
export function extractExpression(options: ExtractOptions): string {
  const needsLibraries = options.formats?.some((f) => f === 'markdown' || f === 'readability');
  return `(${pageScript('extract')})(${needsLibraries ? librarySource() : '{}'}, ${JSON.stringify(options)})`;
}

export async function extract(page: Page, options: ExtractOptions): Promise<Extracted> {
  const expression = extractExpression(options);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'data-api-extract' });
    const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
      expression,
      contextId: executionContextId,
      returnByValue: true,
      awaitPromise: true,
    });
    if (exceptionDetails) throw new Error(`extraction failed in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value as Extracted;
  } finally {
    void cdp.detach().catch(() => {});
  }
}
