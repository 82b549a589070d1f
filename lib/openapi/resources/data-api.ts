// Answers of the proxy's endpoints (docs/connect.md): the router status and the data API.
import { z } from 'zod';
import { CONTENT_FORMATS } from '../../data-api/schemas';
import { named, timestamp } from './common';

export const routerStatus = z.object({
  ok: z.literal(true),
  providers: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      healthy: z.boolean(),
      priority: z.int(),
      active: z.int().describe('sessions and data-API calls it holds now'),
      maxConcurrent: z.int().nullable(),
      cooldownUntil: timestamp.nullable(),
    }),
  ),
  queued: z.int().describe("connections waiting in the router's queue"),
});

const timings = z.object({ total: z.int(), navigation: z.int(), action: z.int() }).describe('milliseconds');
const content = z.object(
  Object.fromEntries(CONTENT_FORMATS.map((f) => [f, z.string().optional()])) as Record<(typeof CONTENT_FORMATS)[number], z.ZodOptional<z.ZodString>>,
);

export const contentAnswer = named(
  'ContentAnswer',
  z.object({
    success: z.literal(true),
    provider: z.string(),
    data: z.object({
      url: z.string().describe('after redirects'),
      statusCode: z.int(),
      content: content.describe('one entry per requested format'),
      metadata: z.object({ title: z.string(), description: z.string().nullable() }),
      links: z.array(z.object({ url: z.string(), text: z.string() })),
    }),
    timings,
  }),
  {
    example: {
      success: true,
      provider: 'local-chrome',
      data: {
        url: 'https://example.com/',
        statusCode: 200,
        content: { markdown: '# Example Domain\n\nThis domain is for use in illustrative examples.' },
        metadata: { title: 'Example Domain', description: '' },
        links: [{ url: 'https://www.iana.org/domains/example', text: 'More information...' }],
      },
      timings: { total: 812, navigation: 604, action: 95 },
    },
  },
);

export const scrapeAnswer = named(
  'ScrapeAnswer',
  z.object({
    success: z.literal(true),
    provider: z.string(),
    data: z.object({
      url: z.string(),
      statusCode: z.int(),
      selectors: z.array(
        z.object({
          name: z.string(),
          selector: z.string(),
          results: z.array(
            z.object({ text: z.string(), html: z.string(), attribute: z.string().nullable().optional().describe('when the selector named one') }),
          ),
        }),
      ),
      content: content.describe('one entry per requested format; empty without `formats`'),
      screenshot: z.string().optional().describe('base64 JPEG, when `screenshot: true`'),
    }),
    timings,
  }),
  {
    example: {
      success: true,
      provider: 'local-chrome',
      data: {
        url: 'https://example.com/',
        statusCode: 200,
        selectors: [{ name: 'title', selector: 'h1', results: [{ text: 'Example Domain', html: 'Example Domain' }] }],
        content: {},
      },
      timings: { total: 790, navigation: 588, action: 41 },
    },
  },
);
