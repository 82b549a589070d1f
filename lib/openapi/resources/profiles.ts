// Answers about profiles (docs/api.md, Profiles). The state shapes are the ones the handlers
// validate with (lib/profiles/state.ts), named here so the document shows each once.
import { z } from 'zod';
import { capturedStateSchema, cookieSchema, indexedDbSchema, playwrightStateSchema } from '../../profiles/state';
import { count, ex, named, timestamp } from './common';

// The handlers' own schema objects, registered under a name (registering changes nothing in how they parse).
z.globalRegistry.add(cookieSchema, { id: 'ProfileCookie' });
z.globalRegistry.add(indexedDbSchema, {
  id: 'IndexedDbDatabase',
  description: "Playwright's IndexedDB shape (`storageState({ indexedDB: true })`), kept as it is.",
});
z.globalRegistry.add(capturedStateSchema, {
  id: 'CapturedState',
  description:
    "A profile's state in the native shape: what `POST /v1/profiles` takes as `captured` and the native export answers. sessionStorage is accepted and never kept.",
});
z.globalRegistry.add(playwrightStateSchema, {
  id: 'PlaywrightStorageState',
  description: 'A Playwright storage state, as `browserContext.storageState()` writes it.',
});

export { capturedStateSchema, playwrightStateSchema };

export const profile = named(
  'Profile',
  z.object({
    id: z.string(),
    workspaceId: z.string(),
    slug: z.string(),
    name: z.string(),
    sizeBytes: count.describe("the current version's size"),
    capturedOrigins: z.array(z.string()),
    lastUsedAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    version: count.describe('the current version, 0 while never saved'),
    cookieCount: count,
    saving: z.boolean().describe("a session holds the profile's saving lock now"),
  }),
  {
    example: {
      id: ex.profileId,
      workspaceId: ex.workspaceId,
      slug: 'shop-login',
      name: 'Shop login',
      sizeBytes: 18_244,
      capturedOrigins: ['https://shop.example.com'],
      lastUsedAt: ex.later,
      createdAt: ex.at,
      updatedAt: ex.later,
      version: 3,
      cookieCount: 12,
      saving: false,
    },
  },
);

export const profileVersion = z.object({
  version: z.int().min(1),
  sizeBytes: count,
  capturedOrigins: z.array(z.string()),
  cookieCount: count,
  source: z.string().describe('`create`, `import`, `session` or `restore`'),
  sessionLogId: z.string().nullable(),
  createdAt: timestamp,
  current: z.boolean(),
});
