// The saved state of a profile (docs/profiles.md): what a session's browser is given at start and
// what is captured from it at the end. One shape is stored (encrypted, lib/profiles/store.ts) and
// served as the native export; the Playwright `storageState` shape is converted to and from it.
import { z } from 'zod';

/** The per-profile size limit (docs/api.md, Limits): the state's JSON plus its storage archive. */
export const PROFILE_MAX_BYTES = 10 * 1024 * 1024;
/** The workspace's profile storage: the sum of every profile's current version. */
export const WORKSPACE_PROFILE_BYTES = 500 * 1024 * 1024;
/** Versions kept per profile; older ones are deleted when a new one is saved. */
export const VERSIONS_KEPT = 10;

const sameSite = z.enum(['Strict', 'Lax', 'None']);

/**
 * A cookie as CDP's Storage.getCookies reports it, reduced to what restoring it needs. `expires` is
 * seconds since the epoch; absent (or -1) for a session cookie, which is saved like any other.
 */
export const cookieSchema = z.object({
  name: z.string().max(4096),
  value: z.string().max(16_384),
  domain: z.string().min(1).max(255),
  path: z.string().max(1024).default('/'),
  expires: z.number().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  sameSite: sameSite.optional(),
  session: z.boolean().optional(),
  partitionKey: z.object({ topLevelSite: z.string(), hasCrossSiteAncestor: z.boolean() }).optional(),
});
export type ProfileCookie = z.infer<typeof cookieSchema>;

/** Playwright's IndexedDB shape (storageState({ indexedDB: true })), kept as it is. */
const idbKeyPath = { keyPath: z.string().optional(), keyPathArray: z.array(z.string()).optional() };
export const indexedDbSchema = z.object({
  name: z.string(),
  version: z.number().int(),
  stores: z.array(
    z.object({
      name: z.string(),
      autoIncrement: z.boolean().default(false),
      ...idbKeyPath,
      records: z.array(
        z.object({ key: z.unknown().optional(), keyEncoded: z.unknown().optional(), value: z.unknown().optional(), valueEncoded: z.unknown().optional() }),
      ),
      indexes: z.array(z.object({ name: z.string(), ...idbKeyPath, multiEntry: z.boolean().default(false), unique: z.boolean().default(false) })).default([]),
    }),
  ),
});
export type IndexedDbDatabase = z.infer<typeof indexedDbSchema>;

const stringMap = z.record(z.string(), z.string());

/** An origin: scheme://host[:port], as `new URL(x).origin` writes it. */
export const originSchema = z
  .string()
  .refine((value) => canonicalOrigin(value) === value, 'must be an origin such as https://example.com (scheme, host and port only)');

/** The captured-state shape of docs/api.md (create and native export), plus IndexedDB. */
export const capturedStateSchema = z.object({
  version: z.literal(1, { message: 'version must be 1' }),
  capturedAt: z.string().datetime({ offset: true }).optional(),
  cookies: z.array(cookieSchema).max(10_000),
  storage: z
    .record(
      originSchema,
      z.object({ localStorage: stringMap.default({}), sessionStorage: stringMap.optional(), indexedDB: z.array(indexedDbSchema).optional() }),
    )
    .default({}),
  meta: z
    .object({
      capturedOrigins: z.array(z.string()).default([]),
      skippedOrigins: z.array(z.string()).default([]),
      durationMs: z.number().int().min(0).default(0),
    })
    .partial()
    .optional(),
  /** The managed provider's storage files (a tar of the browser profile's IndexedDB and Local Storage folders), base64. */
  storageArchive: z.string().base64().optional(),
});

export interface OriginState {
  localStorage: Record<string, string>;
  /** Always empty: sessionStorage is never saved. Present for the documented shape. */
  sessionStorage: Record<string, never>;
  /** IndexedDB in Playwright's shape (imported, or read from the pages at capture on a managed provider). */
  indexedDB?: IndexedDbDatabase[];
}

export interface ProfileState {
  version: 1;
  capturedAt: string;
  cookies: ProfileCookie[];
  storage: Record<string, OriginState>;
  meta: { capturedOrigins: string[]; skippedOrigins: string[]; durationMs: number };
  /** base64 tar of the managed provider's IndexedDB and Local Storage folders (proxy/pool/README.md, Storage archives). */
  storageArchive?: string;
  /**
   * Bytes of the archive that repeat the JSON (its Local Storage files, taken with it): not counted
   * against the limits, which measure what the profile holds, not how many ways it is kept. Set by
   * the proxy from the snapshot it took; never from a request.
   */
  storageArchiveDuplicateBytes?: number;
}

export function emptyState(): ProfileState {
  return { version: 1, capturedAt: new Date().toISOString(), cookies: [], storage: {}, meta: { capturedOrigins: [], skippedOrigins: [], durationMs: 0 } };
}

/** Parses a validated captured-state body into the stored shape (sessionStorage dropped). */
export function fromCaptured(input: z.infer<typeof capturedStateSchema>): ProfileState {
  const storage: Record<string, OriginState> = {};
  for (const [origin, value] of Object.entries(input.storage)) {
    storage[origin] = { localStorage: value.localStorage, sessionStorage: {}, ...(value.indexedDB?.length ? { indexedDB: value.indexedDB } : {}) };
  }
  return {
    version: 1,
    capturedAt: input.capturedAt ?? new Date().toISOString(),
    cookies: input.cookies.map(normalizeCookie),
    storage,
    meta: {
      capturedOrigins: input.meta?.capturedOrigins ?? Object.keys(storage),
      skippedOrigins: input.meta?.skippedOrigins ?? [],
      durationMs: input.meta?.durationMs ?? 0,
    },
    ...(input.storageArchive ? { storageArchive: input.storageArchive } : {}),
  };
}

function normalizeCookie(cookie: ProfileCookie): ProfileCookie {
  const session = cookie.session === true || cookie.expires === undefined || cookie.expires < 0;
  const { expires, ...rest } = cookie;
  return { ...rest, path: cookie.path || '/', session, ...(session ? {} : { expires }) };
}

// ---------------------------------------------------------------- Playwright storageState

export const playwrightStateSchema = z.object({
  cookies: z
    .array(
      z.object({
        name: z.string().max(4096),
        value: z.string().max(16_384),
        domain: z.string().min(1).max(255),
        path: z.string().max(1024),
        expires: z.number(),
        httpOnly: z.boolean(),
        secure: z.boolean(),
        sameSite: sameSite,
        partitionKey: z.string().optional(),
      }),
    )
    .max(10_000),
  origins: z
    .array(
      z.object({
        origin: originSchema,
        localStorage: z.array(z.object({ name: z.string(), value: z.string() })),
        indexedDB: z.array(indexedDbSchema).optional(),
      }),
    )
    .max(10_000),
});
export type PlaywrightState = z.infer<typeof playwrightStateSchema>;

export function fromPlaywright(input: PlaywrightState): ProfileState {
  const storage: Record<string, OriginState> = {};
  for (const origin of input.origins) {
    const entry = storage[origin.origin] ?? { localStorage: {}, sessionStorage: {} };
    for (const item of origin.localStorage) entry.localStorage[item.name] = item.value;
    if (origin.indexedDB?.length) entry.indexedDB = origin.indexedDB;
    storage[origin.origin] = entry;
  }
  const cookies = input.cookies.map((c) =>
    normalizeCookie({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      expires: c.expires,
      httpOnly: c.httpOnly,
      secure: c.secure,
      sameSite: c.sameSite,
      ...(c.partitionKey ? { partitionKey: { topLevelSite: c.partitionKey, hasCrossSiteAncestor: false } } : {}),
    }),
  );
  return {
    version: 1,
    capturedAt: new Date().toISOString(),
    cookies,
    storage,
    meta: { capturedOrigins: Object.keys(storage), skippedOrigins: [], durationMs: 0 },
  };
}

export function toPlaywright(state: ProfileState): PlaywrightState {
  return {
    cookies: state.cookies.map((c) => ({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path,
      expires: c.session || c.expires === undefined ? -1 : c.expires,
      httpOnly: c.httpOnly ?? false,
      secure: c.secure ?? false,
      sameSite: c.sameSite ?? 'Lax',
      ...(c.partitionKey ? { partitionKey: c.partitionKey.topLevelSite } : {}),
    })),
    origins: Object.entries(state.storage)
      .filter(([, s]) => Object.keys(s.localStorage).length > 0 || (s.indexedDB?.length ?? 0) > 0)
      .map(([origin, s]) => ({
        origin,
        localStorage: Object.entries(s.localStorage).map(([name, value]) => ({ name, value })),
        ...(s.indexedDB?.length ? { indexedDB: s.indexedDB } : {}),
      })),
  };
}

/** The native export: the stored shape as it is (storage archive included, base64). */
export function toNative(state: ProfileState): ProfileState {
  const { storageArchiveDuplicateBytes: _internal, ...native } = state;
  return native;
}

// ---------------------------------------------------------------- sizes and origins

/** Bytes counted against the limits: the JSON of cookies and storage plus the archive's bytes. */
export function stateSize(state: ProfileState): number {
  const { storageArchive, storageArchiveDuplicateBytes, ...rest } = state;
  const archiveBytes = storageArchive ? Math.floor((storageArchive.length * 3) / 4) : 0;
  return Buffer.byteLength(JSON.stringify(rest)) + Math.max(0, archiveBytes - (storageArchive ? (storageArchiveDuplicateBytes ?? 0) : 0));
}

/** Origins the state holds something for (localStorage or IndexedDB). */
export function originsOf(state: ProfileState): string[] {
  return Object.entries(state.storage)
    .filter(([, s]) => Object.keys(s.localStorage).length > 0 || (s.indexedDB?.length ?? 0) > 0)
    .map(([origin]) => origin)
    .sort();
}

/** True when the state holds nothing at all. */
export function isEmptyState(state: ProfileState): boolean {
  return state.cookies.length === 0 && originsOf(state).length === 0 && !state.storageArchive;
}

/** `scheme://host[:port]` of an http(s) URL, or null. */
export function canonicalOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}
