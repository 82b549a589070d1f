// Request bodies of the data API (docs/connect.md, "Data API"). The screenshot schema is the base of the
// other two; every field's type, default and range is stated here once. The proxy validates with
// them and the API's OpenAPI document (lib/openapi) describes them, so they live in lib/.
import { z } from 'zod';

export const TIMEOUT_DEFAULT_MS = 30_000;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Set by the browser itself; a caller cannot meaningfully override them per request. */
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'upgrade', 'keep-alive', 'te', 'trailer']);

const httpUrl = z
  .string()
  .max(8_192)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'must be a fully qualified http(s) URL');

const cssSelector = z.string().trim().min(1).max(1_000);

export const screenshotRequest = z.strictObject({
  url: httpUrl,
  format: z.enum(['png', 'jpeg']).default('png'),
  fullPage: z.boolean().default(false),
  viewport: z.strictObject({ width: z.number().int().min(1).max(3_840), height: z.number().int().min(1).max(2_160) }).default({ width: 1280, height: 720 }),
  quality: z.number().int().min(0).max(100).optional(),
  selector: cssSelector.optional(),
  clip: z
    .strictObject({ x: z.number().min(0), y: z.number().min(0), width: z.number().positive().max(16_384), height: z.number().positive().max(16_384) })
    .optional(),
  omitBackground: z.boolean().default(false),
  scrollPage: z.boolean().default(false),
  waitUntil: z.enum(['load', 'domcontentloaded', 'networkidle', 'commit']).default('domcontentloaded'),
  waitForSelector: cssSelector.optional(),
  waitForTimeout: z.number().int().min(0).max(30_000).optional(),
  timeout: z.number().int().min(1_000).max(120_000).default(TIMEOUT_DEFAULT_MS),
  headers: z
    .record(
      z
        .string()
        .regex(HEADER_NAME, 'is not a valid header name')
        .refine((name) => !FORBIDDEN_HEADERS.has(name.toLowerCase()), 'is set by the browser and cannot be overridden'),
      z
        .string()
        .max(8_192)
        .refine((value) => !/[\r\n\0]/.test(value), 'must not contain line breaks'),
    )
    .refine((headers) => Object.keys(headers).length <= 50, 'at most 50 headers')
    .optional(),
  userAgent: z.string().min(1).max(1_000).optional(),
  provider: z.string().min(1).max(200).optional(),
  /** Accepted and ignored: every call runs in a fresh browser context without saved state. */
  profile: z.string().max(200).optional(),
});

/**
 * The cross-field rules of the shared fields; applied to each endpoint's final schema. `quality`
 * (JPEG only) and `omitBackground` (PNG only) are scoped by the contract, not refused: where they
 * do not apply they are ignored (proxy/data-api/actions.ts).
 */
function sharedRules(value: z.infer<typeof screenshotRequest>, ctx: z.RefinementCtx): void {
  if (value.selector !== undefined && value.clip !== undefined)
    ctx.addIssue({ code: 'custom', path: ['clip'], message: 'give either selector or clip, not both' });
  if (value.selector !== undefined && value.fullPage)
    ctx.addIssue({ code: 'custom', path: ['fullPage'], message: 'cannot be combined with selector (the element decides the size)' });
}

export const CONTENT_FORMATS = ['html', 'markdown', 'text', 'readability'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

const formats = z
  .array(z.enum(CONTENT_FORMATS))
  .min(1)
  .max(CONTENT_FORMATS.length)
  .transform((list) => [...new Set(list)]);

export const contentRequest = screenshotRequest.extend({ formats: formats.default(['markdown']) });

export const scrapeSelector = z.strictObject({
  name: z.string().trim().min(1).max(100),
  selector: cssSelector,
  /** When given, each result also carries this attribute's value as `attribute`. */
  attribute: z.string().trim().min(1).max(200).optional(),
});

export const scrapeRequest = screenshotRequest.extend({
  selectors: z.array(scrapeSelector).min(1).max(100).optional(),
  formats: formats.optional(),
  /** Adds `data.screenshot`: a base64 JPEG of the page (fullPage, clip, selector, quality apply). */
  screenshot: z.boolean().default(false),
});

export const screenshotSchema = screenshotRequest.superRefine(sharedRules);
export const contentSchema = contentRequest.superRefine(sharedRules);
// Scrape's screenshot is always a JPEG: `quality` applies to it, `omitBackground` is ignored.
export const scrapeSchema = scrapeRequest.superRefine((value, ctx) => {
  sharedRules(value, ctx);
  if (!value.selectors && !value.formats) ctx.addIssue({ code: 'custom', path: ['selectors'], message: 'give selectors, formats or both' });
  const names = new Set<string>();
  value.selectors?.forEach((s, i) => {
    if (names.has(s.name)) ctx.addIssue({ code: 'custom', path: ['selectors', i, 'name'], message: `"${s.name}" is used twice` });
    names.add(s.name);
  });
});

export type ScreenshotRequest = z.infer<typeof screenshotSchema>;
export type ContentRequest = z.infer<typeof contentSchema>;
export type ScrapeRequest = z.infer<typeof scrapeSchema>;
/** What every endpoint shares: navigation and page options. */
export type PageRequest = ScreenshotRequest;
