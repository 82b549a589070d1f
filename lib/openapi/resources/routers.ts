// Answers about routers, their switches and agent defaults, router keys and chat links (docs/api.md,
// Routers; Router keys and chat links).
import { z } from 'zod';
import { ROUTER_STRATEGIES } from '../../routers/schemas';
import { count, ex, named, timestamp } from './common';

const routerExample = {
  id: ex.routerId,
  slug: 'default',
  name: 'Default router',
  description: null,
  kind: 'route',
  strategy: 'round-robin' as const,
  cooldownDefaultMs: 30_000,
  cooldownFailureThreshold: 0.5,
  cooldownMinRequestVolume: 3,
  connectionTimeoutMs: 15_000,
  sessionIdleTimeoutMs: 300_000,
  queueMaxSize: 50,
  queueTimeoutMs: 30_000,
  healthCheckIntervalMs: 30_000,
  traceRedactNames: ['X-Site-Session-Id', 'acct'],
  providerCount: 1,
  apiKeyCount: 1,
  createdAt: ex.at,
  updatedAt: ex.at,
};
const keyExample = {
  id: ex.keyId,
  routerInstanceId: ex.routerId,
  label: 'Default key',
  prefix: 'rkey_7hQ2xK',
  lastUsedAt: null,
  revokedAt: null,
  createdAt: ex.at,
};
const plaintextKey = 'rkey_7hQ2xK9mPb4Lw0sT3vYc8nR1dE6fG2hJ5kA';

export const router = named(
  'Router',
  z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    kind: z.string().describe('`route`'),
    strategy: z.enum(ROUTER_STRATEGIES),
    cooldownDefaultMs: z.int(),
    cooldownFailureThreshold: z.number(),
    cooldownMinRequestVolume: z.int(),
    connectionTimeoutMs: z.int(),
    sessionIdleTimeoutMs: z.int(),
    queueMaxSize: z.int(),
    queueTimeoutMs: z.int(),
    healthCheckIntervalMs: z.int(),
    traceRedactNames: z.array(z.string()).describe('header and query-parameter names its traces redact besides the defaults (docs/traces.md, Secrets)'),
    providerCount: count,
    apiKeyCount: count.describe('live router keys'),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  { example: routerExample },
);

export const routerKey = named(
  'RouterKey',
  z.object({
    id: z.string(),
    routerInstanceId: z.string(),
    label: z.string(),
    prefix: z.string(),
    lastUsedAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
    createdAt: timestamp,
  }),
  { description: 'A router key (`rkey_…`): what the connect endpoint and the data API take.', example: keyExample },
);

export const routerKeyWithPlaintext = named(
  'RouterKeyWithPlaintext',
  routerKey.extend({ plaintextKey: z.string().describe('the key itself, shown in this answer only') }),
  {
    example: { ...keyExample, plaintextKey },
  },
);

export const routerCreated = named(
  'RouterCreated',
  router.extend({ apiKey: routerKeyWithPlaintext.describe("the router's first key, its plaintext shown once") }),
  {
    description: 'A new router with its first key.',
    example: { ...routerExample, apiKey: { ...keyExample, plaintextKey } },
  },
);

export const routerSettings = z.object({
  routerInstanceId: z.string(),
  webhooksEnabled: z.boolean(),
  profilesEnabled: z.boolean(),
  replayEnabled: z.boolean().describe('recording'),
  observabilityEnabled: z.boolean().describe('traces'),
});

export const agentSettings = z.object({
  routerInstanceId: z.string(),
  recordDefault: z.boolean(),
  observabilityDefault: z.boolean(),
  defaultProfile: z.string().nullable().describe('a profile slug'),
  saveProfileDefault: z.boolean(),
});

export const chatLink = named(
  'ChatLink',
  z.object({
    id: z.string(),
    routerInstanceId: z.string(),
    token: z.string().describe('`mcp_…`: the credential of the MCP endpoint'),
    lastUsedAt: timestamp.nullable(),
    createdAt: timestamp,
  }),
  { example: { id: 'cm3kq2b3f000aa8s2c1v2b3n4', routerInstanceId: ex.routerId, token: 'mcp_Zp4Kq8Wm2Xr6Tn0Bv5Lc9Hd3', lastUsedAt: null, createdAt: ex.at } },
);
