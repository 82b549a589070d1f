// One session: a fresh user-data-dir (seeded with a prepared IndexedDB), a fresh Chromium, the
// relay, and at the end: stop the browser, snapshot Default/IndexedDB (the browser has exited,
// so its files are consistent), remove the directory. The 101 carries the session's id and a key
// of its own: its snapshot is handed out only with that key.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../lib/log';
import type { Browser } from './browser';
import type { PoolConfig } from './config';
import { connectUpstream, Relay } from './relay';
import { refuse } from './respond';
import { ArchiveTooLargeError, collectEntries, pack, writeEntries, type TarEntry } from './tar';

export type Snapshot = { archive: Buffer; files: number } | { error: string; status: 413 | 500 };

export interface SessionContext {
  config: PoolConfig;
  runDir: string;
  log: Logger;
  /** The browser slot (and so the uid) this session runs in. */
  slot: number;
  /** Starts the browser on the session's user-data-dir (BrowserPool.launch). */
  launch(userDataDir: string, signal: AbortSignal): Promise<Browser>;
  saveSnapshot(id: string, key: string, snapshot: Snapshot): void;
}

const HANDSHAKE_TIMEOUT_MS = 10_000;

export class Session {
  readonly id = randomUUID();
  /** Sent once, in the 101 (X-Pool-Snapshot-Key); required to fetch or delete the snapshot. */
  readonly snapshotKey = randomBytes(32).toString('base64url');
  readonly userDataDir: string;
  readonly startedAt = new Date();
  state: 'launching' | 'open' | 'closing' | 'closed' = 'launching';
  pid?: number;
  /** The browser's DevTools port (refused to every page while the browser runs). */
  devtoolsPort?: number;
  bytesToBrowser = 0;
  bytesToClient = 0;
  readonly done: Promise<void>;
  private resolveDone!: () => void;
  private readonly abort = new AbortController();
  private relay?: Relay;
  private stopping = false;

  constructor(private readonly ctx: SessionContext) {
    this.userDataDir = path.join(ctx.runDir, this.id);
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  /** Pool shutdown: close the client with 1001 (or refuse it, when still launching). */
  shutdown(): void {
    this.stopping = true;
    if (this.relay) this.relay.closeClient(1001, 'pool shutting down');
    else this.abort.abort();
  }

  async run(req: IncomingMessage, client: Duplex, head: Buffer, prepared?: TarEntry[]): Promise<void> {
    const { config } = this.ctx;
    const log = this.ctx.log.child({ session: this.id, slot: this.ctx.slot });
    // Upgraded sockets allow half-open: a client that hangs up may only emit 'end'.
    const onEarlyClose = () => this.abort.abort();
    client.once('end', onEarlyClose);
    client.once('close', onEarlyClose);
    client.on('error', () => {}); // a reset client is an ordinary end, handled through 'close'
    let browser: Browser | undefined;
    try {
      await mkdir(path.join(this.userDataDir, 'Default'), { recursive: true, mode: 0o700 });
      if (prepared) await writeEntries(path.join(this.userDataDir, 'Default'), prepared);
      browser = await this.ctx.launch(this.userDataDir, this.abort.signal);
      this.pid = browser.pid;
      this.devtoolsPort = browser.devtoolsPort;
      const upstream = await connectUpstream(browser.wsUrl, req, HANDSHAKE_TIMEOUT_MS, this.abort.signal);
      if (this.abort.signal.aborted) {
        upstream.socket.destroy();
        throw new Error('launch aborted');
      }
      client.off('end', onEarlyClose);
      client.off('close', onEarlyClose);
      this.relay = new Relay(client, head, upstream, { 'X-Pool-Session': this.id, 'X-Pool-Snapshot-Key': this.snapshotKey });
      this.state = 'open';
      log.info({ pid: browser.pid, launchMs: browser.launchMs, prepared: Boolean(prepared) }, 'session open');
      const exitedFirst = await Promise.race([this.relay.ended.then(() => false), browser.exited.then(() => true)]);
      if (exitedFirst) this.relay.closeClient(1011, 'browser exited');
      const by = await this.relay.ended;
      // A client's close frame is answered by the browser, which then hangs up first: still the client's doing.
      const endedBy = this.stopping ? 'shutdown' : exitedFirst ? 'browser exit' : this.relay.toBrowser.closeSeen ? 'client' : by;
      log.info({ endedBy, bytesToBrowser: this.relay.toBrowser.bytes, bytesToClient: this.relay.toClient.bytes, messagesToBrowser: this.relay.toBrowser.messages, messagesToClient: this.relay.toClient.messages, durationMs: Date.now() - this.startedAt.getTime() }, 'session closed');
    } catch (error) {
      const message = (error as Error).message;
      if (!client.destroyed) refuse(client, this.stopping ? 503 : 502, this.stopping ? 'pool shutting down' : `browser failed to start: ${message}`);
      if (!this.abort.signal.aborted) log.warn({ err: message }, 'session failed to start');
    } finally {
      this.state = 'closing';
      this.bytesToBrowser = this.relay?.toBrowser.bytes ?? 0;
      this.bytesToClient = this.relay?.toClient.bytes ?? 0;
      await browser?.stop(config.killGraceMs);
      if (this.relay) this.ctx.saveSnapshot(this.id, this.snapshotKey, await this.snapshot(log));
      await rm(this.userDataDir, { recursive: true, force: true }).catch((err: Error) => log.error({ err: err.message }, 'could not remove the user-data-dir'));
      this.state = 'closed';
      this.resolveDone();
    }
  }

  private async snapshot(log: Logger): Promise<Snapshot> {
    const { maxArchiveBytes, maxArchiveEntries } = this.ctx.config;
    try {
      const entries = await collectEntries(path.join(this.userDataDir, 'Default'), 'IndexedDB', { maxBytes: maxArchiveBytes, maxEntries: maxArchiveEntries });
      const archive = pack(entries);
      if (archive.length > maxArchiveBytes) throw new ArchiveTooLargeError(`${archive.length} bytes`);
      return { archive, files: entries.filter((e) => e.type === 'file').length };
    } catch (error) {
      if (error instanceof ArchiveTooLargeError) return { status: 413, error: `IndexedDB is over the ${maxArchiveBytes / 1024 / 1024} MB profile limit (${error.message})` };
      log.error({ err: (error as Error).message }, 'IndexedDB snapshot failed');
      return { status: 500, error: 'IndexedDB snapshot failed' };
    }
  }
}
