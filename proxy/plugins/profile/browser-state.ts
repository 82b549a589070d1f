// Moving a profile's state into a browser and out of it over CDP (docs/profiles.md, How it works):
// cookies through the Storage domain (default context, session cookies included), localStorage
// and IndexedDB through helper pages, one blank document per origin. On a provider that is not a
// fresh browser per session (a generic provider), a marker says which profile's state is in it.
import type { ProfileCookie, ProfileState, OriginState, IndexedDbDatabase } from '../../../lib/profiles/state';
import { canonicalOrigin } from '../../../lib/profiles/state';
import type { Protocol } from '../../../lib/cdp/protocol';
import { CdpError } from '../../../lib/cdp/errors';
import type { Cdp } from './cdp';
import { runOnOrigins, type HelperOptions } from './helper-pages';
import { readOriginExpression, writeOriginExpression } from './page-scripts';

type CookieParam = Protocol.Network.CookieParam;

/** The marker: a cookie and a localStorage item on an origin no site can have (RFC 6761 `.invalid`). */
export const MARKER_DOMAIN = 'profile-marker.invalid';
export const MARKER_ORIGIN = `http://${MARKER_DOMAIN}`;
export const MARKER_NAME = 'browser-router-profile';

export class ResidueError extends Error {}

export interface CdpCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  session: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  partitionKey?: { topLevelSite: string; hasCrossSiteAncestor: boolean };
  partitionKeyOpaque?: boolean;
}

const PARALLEL_TABS = 6;
/**
 * A load's helper tabs are done within this (its checks and writes together), leaving time inside
 * load-upstream.ts's LOAD_LIMIT_MS for the tabs to close.
 */
const LOAD_HELPERS_MS = 15_000;
/**
 * A capture starts no origin after 9 s and gives up the origins still under way at 12 s: it ends
 * inside the lane's RELEASE_LIMIT_MS. Origins left unread keep their loaded state (lib/profiles/merge.ts).
 */
const CAPTURE_START_BY_MS = 9_000;
const CAPTURE_END_MS = 12_000;

// ---------------------------------------------------------------- load

export interface LoadInput {
  state: ProfileState;
  /** Write localStorage through helper tabs (not when the managed provider's files already hold it). */
  localStorage: boolean;
  /** Write the Playwright-shaped IndexedDB of the state (managed providers without a file archive). */
  indexedDB: boolean;
  /** Generic providers: the profile whose marker may be found (residue check) and is planted. */
  marker: string | null;
  /** Clear the browser's cookies first (a browser that may hold someone's). */
  clearFirst: boolean;
  onHelper?: HelperOptions['onHelper'];
}

export interface LoadReport {
  cookies: number;
  skippedCookies: number;
  origins: number;
  failedOrigins: string[];
}

export async function loadIntoBrowser(cdp: Cdp, input: LoadInput): Promise<LoadReport> {
  const { state } = input;
  const helpers: HelperOptions = { parallel: PARALLEL_TABS, endAt: performance.now() + LOAD_HELPERS_MS, onHelper: input.onHelper };
  if (input.marker) await checkResidue(cdp, input.marker, helpers);
  if (input.clearFirst) await cdp.send('Storage.clearCookies', {});
  const cookies = sanitizeForInject(state.cookies);
  if (input.marker) cookies.push(markerCookie(input.marker));
  const cookiesSet = setCookies(cdp, cookies);
  // With a marker, the cookies (the marker's included) are in before any origin is written: a load
  // that fails half-way leaves the marker to be found. Else the helper tabs open meanwhile.
  if (input.marker) await cookiesSet;

  const writes = new Map<string, { localStorage?: Record<string, string>; indexedDB?: IndexedDbDatabase[] }>();
  for (const [origin, s] of Object.entries(state.storage)) {
    const idb = input.indexedDB && s.indexedDB?.length ? s.indexedDB : undefined;
    const items = input.localStorage ? s.localStorage : null;
    if ((!items || Object.keys(items).length === 0) && !idb) continue;
    // Without items the script leaves localStorage as the files made it (writeOriginExpression).
    writes.set(origin, { ...(items ? { localStorage: items } : {}), ...(idb ? { indexedDB: idb } : {}) });
  }
  if (input.marker) writes.set(MARKER_ORIGIN, { localStorage: { [MARKER_NAME]: input.marker } });
  const [skipped, run] = await Promise.all([
    cookiesSet,
    runOnOrigins(cdp, [...writes.keys()], (origin) => writeOriginExpression(writes.get(origin)!), helpers),
  ]);
  return { cookies: cookies.length - skipped, skippedCookies: skipped, origins: run.results.size, failedOrigins: [...run.failed.keys()] };
}

async function checkResidue(cdp: Cdp, profileId: string, helpers: HelperOptions): Promise<void> {
  const { cookies } = await cdp.send('Storage.getCookies', {});
  const cookie = cookies.find((c) => c.domain.replace(/^\./, '') === MARKER_DOMAIN && c.name === MARKER_NAME);
  if (cookie && cookie.value !== profileId) throw new ResidueError('the browser still holds cookies another profile loaded');
  // localStorage outlives a disposed browser context (Chromium keeps it), so it is checked too.
  const run = await runOnOrigins<{ localStorage: Record<string, string> }>(cdp, [MARKER_ORIGIN], () => readOriginExpression({ indexedDB: false }), helpers);
  const found = run.results.get(MARKER_ORIGIN)?.localStorage[MARKER_NAME];
  if (found !== undefined && found !== profileId) throw new ResidueError('the browser still holds localStorage another profile loaded');
  if (run.failed.size > 0) throw new CdpError('answered', `could not check the browser for another profile's state: ${[...run.failed.values()][0]}`);
}

function markerCookie(profileId: string): CookieParam {
  return {
    name: MARKER_NAME,
    value: profileId,
    domain: MARKER_DOMAIN,
    path: '/',
    expires: Math.floor(Date.now() / 1000) + 365 * 86_400,
    httpOnly: true,
    secure: false,
    sameSite: 'Lax',
  };
}

/**
 * CDP refuses a whole Storage.setCookies batch for one bad cookie. Left out up front: expired
 * cookies, SameSite=None without Secure, __Host-/__Secure- cookies that break their prefix rules.
 */
export function sanitizeForInject(cookies: readonly ProfileCookie[]): CookieParam[] {
  const now = Date.now() / 1000;
  const out: CookieParam[] = [];
  for (const c of cookies) {
    const session = c.session === true || c.expires === undefined || c.expires < 0;
    if (!session && c.expires! <= now) continue;
    if (c.sameSite === 'None' && !c.secure) continue;
    if (c.name.startsWith('__Secure-') && !c.secure) continue;
    if (c.name.startsWith('__Host-') && (!c.secure || c.path !== '/' || c.domain.startsWith('.'))) continue;
    out.push({
      name: c.name,
      value: c.value,
      domain: c.domain,
      path: c.path || '/',
      secure: c.secure ?? false,
      httpOnly: c.httpOnly ?? false,
      ...(c.sameSite ? { sameSite: c.sameSite } : {}),
      ...(session ? {} : { expires: c.expires }),
      ...(c.partitionKey ? { partitionKey: c.partitionKey } : {}),
    });
  }
  return out;
}

/** Sets the cookies; when CDP refuses the batch, one by one. Returns how many could not be set. */
async function setCookies(cdp: Cdp, cookies: CookieParam[]): Promise<number> {
  if (cookies.length === 0) return 0;
  try {
    await cdp.send('Storage.setCookies', { cookies });
    return 0;
  } catch (error) {
    if (!(error instanceof CdpError) || error.kind !== 'answered') throw error;
  }
  let skipped = 0;
  await Promise.all(cookies.map((cookie) => cdp.send('Storage.setCookies', { cookies: [cookie] }).catch(() => void skipped++)));
  return skipped;
}

// ---------------------------------------------------------------- capture

export interface CaptureInput {
  /** In order of importance: origins the session visited first (a capture out of time reads those). */
  origins: readonly string[];
  indexedDB: boolean;
  onHelper?: HelperOptions['onHelper'];
}

export interface Capture {
  cookies: ProfileCookie[];
  storage: Record<string, OriginState>;
  skippedOrigins: string[];
  /** Why the first skipped origin was not read, without the origin (for the operator's log). */
  skippedBecause?: string;
  durationMs: number;
}

export async function captureFromBrowser(cdp: Cdp, input: CaptureInput): Promise<Capture> {
  const started = performance.now();
  const helpers: HelperOptions = { parallel: PARALLEL_TABS, startBy: started + CAPTURE_START_BY_MS, endAt: started + CAPTURE_END_MS, onHelper: input.onHelper };
  const { cookies } = await cdp.send('Storage.getCookies', {});
  const origins = [...new Set(input.origins.map((o) => canonicalOrigin(o)).filter((o): o is string => o !== null && o !== MARKER_ORIGIN))];
  const run = await runOnOrigins<{ localStorage: Record<string, string>; indexedDB?: IndexedDbDatabase[] }>(
    cdp,
    origins,
    () => readOriginExpression({ indexedDB: input.indexedDB }),
    helpers,
  );
  const storage: Record<string, OriginState> = {};
  for (const [origin, value] of run.results) {
    storage[origin] = { localStorage: value.localStorage ?? {}, sessionStorage: {}, ...(value.indexedDB?.length ? { indexedDB: value.indexedDB } : {}) };
  }
  return {
    cookies: cookies.filter((c) => !c.partitionKeyOpaque && c.domain.replace(/^\./, '') !== MARKER_DOMAIN).map(fromCdpCookie),
    storage,
    skippedOrigins: [...run.failed.keys()],
    ...firstFailure(run.failed),
    durationMs: Math.round(performance.now() - started),
  };
}

/** The first failure's reason with its origin left out: the log says why, not where the tenant browsed. */
function firstFailure(failed: Map<string, string>): { skippedBecause?: string } {
  const [origin, reason] = [...failed][0] ?? [];
  return origin === undefined || reason === undefined ? {} : { skippedBecause: reason.replaceAll(origin, 'an origin') };
}

function fromCdpCookie(c: CdpCookie): ProfileCookie {
  return {
    name: c.name,
    value: c.value,
    domain: c.domain,
    path: c.path,
    httpOnly: c.httpOnly,
    secure: c.secure,
    session: c.session,
    ...(c.session ? {} : { expires: c.expires }),
    ...(c.sameSite ? { sameSite: c.sameSite } : {}),
    ...(c.partitionKey ? { partitionKey: c.partitionKey } : {}),
  };
}

/** Removes what this session put into a browser that others will use next: storage of the origins, then cookies (the marker last). */
export async function cleanBrowser(cdp: Cdp, origins: readonly string[]): Promise<void> {
  const all = [...new Set([...origins, MARKER_ORIGIN])];
  // Chromium answers Storage.clearDataForOrigin on the browser target with "Internal error": it is
  // sent through a blank page of the default context made for it. Not a page already there: the
  // client's last tab may be closing as the session ends, and clearing through it then failed
  // ("Session with given id not found"), leaving the origins' storage to the next session.
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  let cleared: PromiseSettledResult<unknown>[];
  try {
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
    cleared = await Promise.allSettled(all.map((origin) => cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' }, sessionId)));
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => {});
  } finally {
    await cdp.send('Target.closeTarget', { targetId }).catch(() => {});
  }
  await cdp.send('Storage.clearCookies', {});
  const failed = cleared.find((r) => r.status === 'rejected');
  if (failed) throw new CdpError('answered', `could not clear an origin's storage: ${(failed as PromiseRejectedResult).reason?.message}`);
}
