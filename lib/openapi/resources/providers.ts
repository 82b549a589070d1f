// Answers about providers (docs/api.md, Providers): the resource, what the probe found, and the
// checks (test, probe, verify-key).
import { z } from 'zod';
import { ADAPTER_KINDS } from '../../providers/schemas';
import { ex, named, timestamp } from './common';

const capability = z.enum(['supported', 'unsupported', 'unknown']);

export const capabilities = named(
  'Capabilities',
  z.object({
    providerKind: z.enum(['managed', 'generic']),
    browserCookies: capability,
    targetCreate: capability,
    targetGetTargets: capability,
    fetchInterception: capability,
    pageScreencast: capability,
    targetCreateLatencyMs: z.int().nullable(),
    advertisedMaxConcurrent: z.int().nullable(),
    probedAt: timestamp.nullable(),
    probeDurationMs: z.int().nullable(),
    errors: z.array(z.string()),
  }),
  { description: 'What the capability probe found. Key-based providers are never probed: every capability is `unknown`.' },
);

export const provider = named(
  'Provider',
  z.object({
    id: z.string(),
    ownerId: z.string().describe('the workspace'),
    slug: z.string(),
    name: z.string(),
    url: z.string().nullable().describe('without query string or credentials; null for key-based providers'),
    adapterKind: z.enum(ADAPTER_KINDS).nullable().describe('null for address-based providers'),
    priority: z.int(),
    weight: z.int(),
    maxConcurrent: z.int().nullable().describe('null: no limit here'),
    profile: z.string().nullable().describe('the profile slug it is pinned to'),
    capabilities,
    headers: z.null().describe('always null: headers are secrets (GET …/plaintext shows them)'),
    enabled: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  {
    example: {
      id: ex.providerId,
      ownerId: ex.workspaceId,
      slug: 'local-chrome',
      name: 'Local Chrome',
      url: 'ws://127.0.0.1:9222/devtools/browser/6c1f',
      adapterKind: null,
      priority: 100,
      weight: 100,
      maxConcurrent: 4,
      profile: null,
      capabilities: {
        providerKind: 'generic',
        browserCookies: 'supported',
        targetCreate: 'supported',
        targetGetTargets: 'supported',
        fetchInterception: 'supported',
        pageScreencast: 'supported',
        targetCreateLatencyMs: 42,
        advertisedMaxConcurrent: null,
        probedAt: ex.at,
        probeDurationMs: 812,
        errors: [],
      },
      headers: null,
      enabled: true,
      createdAt: ex.at,
      updatedAt: ex.at,
    },
  },
);

export const providerPlaintext = z.object({ slug: z.string(), url: z.string().nullable(), headers: z.record(z.string(), z.string()).nullable() });

export const testOutcome = named(
  'ProviderTest',
  z.union([z.object({ ok: z.literal(true), latencyMs: z.int() }), z.object({ ok: z.literal(false), reason: z.string() })]),
  { description: 'A test answers 200 either way: `ok: false` carries why the provider failed.', example: { ok: true, latencyMs: 214 } },
);

export const probeResult = z.object({
  detectedKind: z.enum(['managed', 'generic']).nullable().describe('null: nothing answered at the address'),
  advertisedMaxConcurrent: z.int().nullable(),
});

export const verifiedKey = z.object({ verified: z.literal(true), provider: z.string().describe("the vendor's name for the account") });
