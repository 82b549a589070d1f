// A connect with `profile=` (docs/profiles.md): the profile is found (an unknown slug is created
// for a saving session), its size checked, the saving lock taken, the routing rules applied; per
// provider attempt the managed provider is handed the IndexedDB archive and the state is loaded
// into the browser before the client's `101`; the plugin then runs the session's end.
import { ApiError } from '../../../lib/api/errors';
import { db } from '../../../lib/db';
import { log } from '../../../lib/log';
import { egressFetch } from '../../../lib/net/egress-connect';
import { httpHeaders, httpOrigin } from '../../../lib/providers/address';
import { readCapped } from '../../../lib/http/read-capped';
import { emptyState, PROFILE_MAX_BYTES, type ProfileState } from '../../../lib/profiles/state';
import { acquireLock, insertProfile, loadState, LOCK_TTL_MS, releaseLock, renewLock, saveVersion } from '../../../lib/profiles/store';
import { Refusal } from '../../connect/refuse';
import type { UpstreamTarget } from '../../connect/upstream-target';
import type { RuntimeProvider } from '../../config/router-store';
import type { Upstream } from '../../websocket/dial';
import { ResidueError } from './browser-state';
import { loadThroughUpstream } from './load-upstream';
import { hasLocalStorage, withoutLocalStorage } from './archive';
import { ProfilePlugin } from './plugin';

export const PROFILE_SLUG = /^[A-Za-z0-9._-]{1,64}$/;

export { ResidueError };

export class ProfileSession {
  private heartbeat: NodeJS.Timeout | null = null;
  private released = false;

  private constructor(
    readonly profile: { id: string; slug: string; workspaceId: string },
    readonly readOnly: boolean,
    private readonly sessionId: string,
    readonly state: ProfileState,
  ) {}

  /**
   * Refusals (before anything is dialled): 400 bad slug, 402 the 500th profile, 413 over the size
   * limit, 409 another session is saving (Retry-After).
   */
  static async open(input: OpenInput): Promise<ProfileSession> {
    if (!PROFILE_SLUG.test(input.slug)) throw new Refusal(400, 'profile must be 1 to 64 letters, digits, dots, underscores or hyphens');
    let profile: ProfileRow | null = await db.profile.findUnique({
      where: { workspaceId_slug: { workspaceId: input.workspaceId, slug: input.slug } },
      select: { id: true, slug: true, workspaceId: true, sizeBytes: true },
    });
    // Refused before anything is created or locked.
    if (!input.providers.some((p) => profileEligible(p, profile?.id ?? null, input.readOnly))) {
      throw new Refusal(
        400,
        input.readOnly
          ? `every provider on this router is pinned to another profile than "${input.slug}"`
          : `no provider on this router can save to profile "${input.slug}": a managed provider (such as the local pool) saves any profile, any other provider only the profile it is pinned to; or connect with readOnly=1`,
      );
    }
    if (!profile && !input.readOnly) profile = await createProfile(input);
    if (!profile) {
      // readOnly with a slug nobody saved: an empty browser, nothing created.
      return new ProfileSession({ id: '', slug: input.slug, workspaceId: input.workspaceId }, true, input.sessionId, emptyState());
    }
    if (profile.sizeBytes > PROFILE_MAX_BYTES)
      throw new Refusal(
        413,
        `profile "${input.slug}" holds ${Math.round(profile.sizeBytes / 1024 / 1024)} MB, over the ${PROFILE_MAX_BYTES / 1024 / 1024} MB limit; restore a smaller version or delete it`,
      );
    const { id } = profile;
    if (!input.readOnly) await lockForSaving(id, input);
    const state = await loadForSession(id, input);
    const session = new ProfileSession({ id, slug: profile.slug, workspaceId: profile.workspaceId }, input.readOnly, input.sessionId, state);
    if (!input.readOnly) {
      session.heartbeat = setInterval(() => void renewLock(id, input.sessionId).catch(() => {}), LOCK_TTL_MS / 3);
      session.heartbeat.unref();
    }
    return session;
  }

  /** Whether the session's end needs the plugin: a capture to save, or a shared browser to clean. */
  needsPlugin(provider: RuntimeProvider): boolean {
    return !this.readOnly || this.cleans(provider);
  }

  /** A browser others get next: every provider but a managed one (fresh browser per session) or one pinned to this profile. */
  private cleans(provider: RuntimeProvider): boolean {
    return provider.providerKind !== 'managed' && (provider.profileId === null || provider.profileId !== this.profile.id);
  }

  get profileId(): string | null {
    return this.profile.id || null;
  }

  /**
   * The profile rules: a saving session goes to a managed provider that is not pinned to another
   * profile, or to a provider pinned to this one; a read-only one to any provider not pinned to
   * another profile.
   */
  eligible(provider: RuntimeProvider): boolean {
    return profileEligible(provider, this.profile.id || null, this.readOnly);
  }

  /** The address to dial: a managed provider is handed the storage archive first (`?prepare=`). */
  async dialUrl(provider: RuntimeProvider, target: UpstreamTarget): Promise<string> {
    const archive = this.state.storageArchive;
    if (provider.providerKind !== 'managed' || !archive) return target.url;
    const response = await egressFetch(target.policy, `${httpOrigin(target.url)}/pool/prepare`, {
      method: 'POST',
      headers: { ...httpHeaders(target.url, target.headers), 'Content-Type': 'application/x-tar' },
      body: Buffer.from(archive, 'base64'),
      signal: AbortSignal.timeout(10_000),
      redirect: 'manual',
    });
    const text = (response.body ? await readCapped(response.body, 64 * 1024) : null)?.toString('utf8') ?? '';
    if (response.status !== 201) throw new Error(`the provider refused the profile's storage archive (HTTP ${response.status}: ${text.slice(0, 200)})`);
    const { prepareId } = JSON.parse(text) as { prepareId: string };
    const url = new URL(target.url);
    url.searchParams.set('prepare', prepareId);
    return url.toString();
  }

  /**
   * Loads the state into the freshly dialled browser and returns the bytes the lane starts with.
   * ResidueError: the browser holds another profile's state (the attempt is skipped, not failed).
   */
  async load(upstream: Upstream, provider: RuntimeProvider): Promise<Buffer> {
    const managed = provider.providerKind === 'managed';
    // On a managed provider the archive's files already hold IndexedDB (and localStorage, when
    // they were taken with this state): only what they lack is written through helper tabs.
    const files = managed && this.state.storageArchive ? this.state.storageArchive : undefined;
    const { head, report } = await loadThroughUpstream(upstream, {
      state: this.state,
      localStorage: !hasLocalStorage(files),
      indexedDB: managed && !files,
      marker: managed ? null : this.profile.id || `unsaved:${this.profile.slug}`,
      clearFirst: !managed,
    });
    if (report.skippedCookies > 0 || report.failedOrigins.length > 0) {
      log.warn(
        { sessionId: this.sessionId, profile: this.profile.slug, skippedCookies: report.skippedCookies, failedOrigins: report.failedOrigins.slice(0, 5) },
        'profile: part of the state could not be loaded',
      );
    }
    return head;
  }

  /** The plugin for the lane; `target` and `upstream` say where the browser's IndexedDB snapshot will be. */
  plugin(provider: RuntimeProvider, target: UpstreamTarget, upstream: Upstream): ProfilePlugin {
    const managed = provider.providerKind === 'managed';
    const poolSession = upstream.headers['x-pool-session'];
    const snapshotKey = upstream.headers['x-pool-snapshot-key'];
    return new ProfilePlugin({
      sessionId: this.sessionId,
      profileId: this.profile.id,
      loaded: this.state,
      saving: !this.readOnly,
      indexedDB: managed,
      cleanup: this.cleans(provider),
      fetchArchive: managed && poolSession && snapshotKey ? () => fetchSnapshot(target, poolSession, snapshotKey) : undefined,
      // Without a fresh snapshot the saved archive keeps its IndexedDB, not its (now older) localStorage.
      staleArchive: () => withoutLocalStorage(this.state.storageArchive) ?? '',
      save: async (state) => {
        const saved = await saveVersion({
          workspaceId: this.profile.workspaceId,
          profileId: this.profile.id,
          state,
          source: 'session',
          sessionLogId: this.sessionId,
        });
        log.info({ sessionId: this.sessionId, profile: this.profile.slug, version: saved.version, sizeBytes: saved.sizeBytes }, 'profile saved');
      },
      release: () => this.release(),
    });
  }

  /** Frees the saving lock (every end of the session, and every refusal after open()). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (!this.readOnly && this.profile.id)
      await releaseLock(this.profile.id, this.sessionId).catch((error: Error) =>
        log.warn({ err: error.message }, 'profile lock not released (it lapses by itself)'),
      );
  }
}

/** What a connect with `profile=` opens its profile with. */
interface OpenInput {
  workspaceId: string;
  slug: string;
  readOnly: boolean;
  sessionId: string;
  providers: readonly RuntimeProvider[];
}

/** The profile's row as open() reads it. */
interface ProfileRow {
  id: string;
  slug: string;
  workspaceId: string;
  sizeBytes: number;
}

/** Creates the unknown slug for a saving session; one created meanwhile by another connect is read instead. 402 at the 500th. */
async function createProfile(input: OpenInput): Promise<ProfileRow | null> {
  try {
    return await insertProfile({ workspaceId: input.workspaceId, slug: input.slug, name: input.slug });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'conflict')
      return await db.profile.findUnique({ where: { workspaceId_slug: { workspaceId: input.workspaceId, slug: input.slug } } });
    else if (error instanceof ApiError && error.code === 'fair_use_limit_reached')
      throw new Refusal(402, `profile "${input.slug}" would be this workspace's 501st; delete a profile you no longer need`);
    else throw error;
  }
}

/** Takes the saving lock; 409 (with Retry-After) while another session holds it. */
async function lockForSaving(id: string, input: OpenInput): Promise<void> {
  const lock = await acquireLock(id, input.sessionId);
  if (!lock.ok)
    throw new Refusal(409, `another session is saving to profile "${input.slug}"; retry when it ends, or connect with readOnly=1`, {
      'Retry-After': String(lock.retryAfterS),
    });
}

/** The profile's latest state, its use noted; a saving session's lock is freed again when that fails. */
async function loadForSession(id: string, input: OpenInput): Promise<ProfileState> {
  try {
    const { state } = await loadState(id);
    await db.$executeRaw`UPDATE "Profile" SET "lastUsedAt" = now() WHERE "id" = ${id}`;
    return state;
  } catch (error) {
    if (!input.readOnly) await releaseLock(id, input.sessionId).catch(() => {});
    throw error;
  }
}

/** The profile rules of docs/profiles.md (Routing) for one provider. */
export function profileEligible(provider: Pick<RuntimeProvider, 'profileId' | 'providerKind'>, profileId: string | null, readOnly: boolean): boolean {
  if (provider.profileId !== null) return provider.profileId === profileId;
  return readOnly || provider.providerKind === 'managed';
}

/** The managed provider's storage snapshot: base64, '' when the browser wrote none. */
async function fetchSnapshot(target: UpstreamTarget, poolSession: string, key: string): Promise<string> {
  const response = await egressFetch(target.policy, `${httpOrigin(target.url)}/pool/sessions/${encodeURIComponent(poolSession)}/indexeddb`, {
    headers: { ...httpHeaders(target.url, target.headers), 'X-Pool-Snapshot-Key': key },
    signal: AbortSignal.timeout(40_000),
    redirect: 'manual',
  });
  const body = response.body ? await readCapped(response.body, PROFILE_MAX_BYTES + 1024 * 1024) : null;
  if (response.status !== 200 || !body) throw new Error(`IndexedDB snapshot: HTTP ${response.status}${body ? ` ${body.toString('utf8').slice(0, 200)}` : ''}`);
  if (Number(response.headers.get('x-indexeddb-files') ?? '0') === 0) return '';
  return body.toString('base64');
}
