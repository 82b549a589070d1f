// Profiles on the gateway (docs/gateway.md, "Profiles"): `/v1/connect?profile=<name>` loads a saved
// browser state (cookies and localStorage) into the provider's browser before the client's 101, and
// a session that may save (no `readOnly=1`) captures the state again at its end. The hosted proxy's
// loader and pipeline plugin (proxy/plugins/profile/) do the browser work; only the storage differs:
// one file per profile in the data directory's `profiles/`, sealed with the encryption key (0600,
// replaced atomically). Gateway providers are browsers others use too, so the browser is cleared
// before loading and again after the capture.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { readPrivateFile, writePrivateFile } from '../../lib/fs/private-file';
import { log } from '../../lib/log';
import { emptyState, PROFILE_MAX_BYTES, type ProfileState } from '../../lib/profiles/state';
import { loadThroughUpstream } from '../plugins/profile/load-upstream';
import { ProfilePlugin } from '../plugins/profile/plugin';
import type { Upstream } from '../websocket/dial';
import { seal, unseal } from './secrets';

export const PROFILE_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export class ProfileRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class GatewayProfiles {
  private readonly dir: string;
  /** Profiles a session will save to: one at a time each. */
  private readonly saving = new Set<string>();

  constructor(
    dataDir: string,
    private readonly key: Buffer,
  ) {
    this.dir = path.join(dataDir, 'profiles');
  }

  /** Refusals before anything is dialled: 400 a bad name, 409 another session saves to it, 413 too large. */
  open(name: string, readOnly: boolean, sessionId: string): GatewayProfileSession {
    if (!PROFILE_NAME.test(name) || name === '.' || name === '..')
      throw new ProfileRefusal(400, 'profile must be 1 to 64 letters, digits, dots, underscores or hyphens');
    if (!readOnly && this.saving.has(name))
      throw new ProfileRefusal(409, `another session is saving to profile "${name}"; retry when it ends, or connect with readOnly=1`);
    const state = this.read(name);
    if (!readOnly) this.saving.add(name);
    return new GatewayProfileSession(name, readOnly, sessionId, state, {
      save: (next) => this.write(name, next),
      release: () => void this.saving.delete(name),
    });
  }

  private file(name: string): string {
    return path.join(this.dir, `${name}.enc`);
  }

  /** The saved state, or an empty one for a profile never saved. */
  read(name: string): ProfileState {
    const sealed = readPrivateFile(this.file(name));
    if (!sealed) return emptyState();
    if (sealed.length > PROFILE_MAX_BYTES + 64) throw new ProfileRefusal(413, `profile "${name}" is over the ${PROFILE_MAX_BYTES / 1024 / 1024} MB limit`);
    try {
      return JSON.parse(unseal(this.key, sealed).toString('utf8')) as ProfileState;
    } catch {
      throw new ProfileRefusal(500, `profile "${name}" cannot be read with this encryption key`);
    }
  }

  private write(name: string, state: ProfileState): void {
    const plain = Buffer.from(JSON.stringify(state));
    if (plain.length > PROFILE_MAX_BYTES) throw new Error(`the captured state is ${plain.length} bytes, over the ${PROFILE_MAX_BYTES} byte limit; not saved`);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    writePrivateFile(this.file(name), seal(this.key, plain));
  }
}

export class GatewayProfileSession {
  private released = false;

  constructor(
    readonly name: string,
    readonly readOnly: boolean,
    private readonly sessionId: string,
    private readonly state: ProfileState,
    private readonly store: { save: (state: ProfileState) => void; release: () => void },
  ) {}

  /**
   * Clears the freshly dialled browser, loads the state, and returns the bytes the lane starts with.
   * ResidueError: the browser still holds another profile's state (a session that did not end cleanly).
   */
  async load(upstream: Upstream): Promise<Buffer> {
    const { head, report } = await loadThroughUpstream(upstream, {
      state: this.state,
      localStorage: true,
      indexedDB: false,
      marker: `gateway:${this.name}`,
      clearFirst: true,
    });
    if (report.skippedCookies > 0 || report.failedOrigins.length > 0)
      log.warn(
        { profile: this.name, skippedCookies: report.skippedCookies, failedOrigins: report.failedOrigins.slice(0, 5) },
        'profile: part of the state could not be loaded',
      );
    return head;
  }

  /** The pipeline plugin that captures (when saving) and clears the browser at the session's end. */
  plugin(): ProfilePlugin {
    return new ProfilePlugin({
      sessionId: this.sessionId,
      profileId: this.name,
      loaded: this.state,
      saving: !this.readOnly,
      indexedDB: false,
      cleanup: true,
      staleArchive: () => '',
      save: async (state) => {
        this.store.save(state);
        log.info({ profile: this.name, cookies: state.cookies.length, origins: Object.keys(state.storage).length }, 'profile saved');
      },
      release: async () => this.release(),
    });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (!this.readOnly) this.store.release();
  }
}
