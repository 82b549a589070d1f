// One session: a fresh user-data-dir (seeded with a prepared IndexedDB), a fresh Chromium, the
// relay, and at the end: stop the browser, snapshot Default/IndexedDB (the browser has exited,
// so its files are consistent), remove the directory. The 101 carries the session's id and a key
// of its own: its snapshot is handed out only with that key.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { Logger } from '../../lib/log';
import { FastLane } from '../relay/fast-lane';
import { screens } from '../relay/command-screen';
import { refuseUploadsByPath } from './uploads';
import { DOWNLOADS_FOLDER, downloadsInto, keepDownloads, type KeptDownloads } from './downloads';
import { CLIENT_ENDED, type RelayOutcome } from '../relay/types';
import { dialUpstream, type Upstream } from '../websocket/dial';
import { switchingProtocols, watchPending, writeRefusal } from '../websocket/handshake';
import type { Browser } from './browser';
import type { PoolConfig } from './config';
import { ARCHIVE_ROOTS, ArchiveTooLargeError, collectEntries, pack, writeEntries, type TarEntry } from './tar';

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
  /** Keeps what the browser downloaded, for the session's client to collect (downloads.ts). */
  saveDownloads(id: string, kept: KeptDownloads): void;
}

const HANDSHAKE_TIMEOUT_MS = 10_000;
/** The browser's own DevTools socket on loopback: the pool's egress rules are the sandbox's, not the proxy's. */
const BROWSER_SOCKET_POLICY = { privateNetwork: 'allow' as const, internalPorts: new Set<number>() };

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
  private relay?: FastLane;
  private stopping = false;
  /** Where the browser saves downloads, and their names (downloads.ts). */
  private readonly downloads: ReturnType<typeof downloadsInto>;

  constructor(private readonly ctx: SessionContext) {
    this.userDataDir = path.join(ctx.runDir, this.id);
    this.downloads = downloadsInto(path.join(this.userDataDir, DOWNLOADS_FOLDER));
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  /** Pool shutdown: close the client with 1001 (or refuse it, when still launching). */
  shutdown(): void {
    this.stopping = true;
    if (this.relay) this.relay.close(1001, 'pool shutting down', { state: 'errored', reason: 'the pool shut down' });
    else this.abort.abort();
  }

  async run(req: IncomingMessage, client: Duplex, head: Buffer, prepared?: TarEntry[]): Promise<void> {
    const log = this.ctx.log.child({ session: this.id, slot: this.ctx.slot });
    client.on('error', () => {}); // a reset client is an ordinary end, handled through 'close'
    // A client that hangs up (FIN or reset) while its browser starts cancels the launch.
    const pending = watchPending(client, () => this.abort.abort());
    let browser: Browser | undefined;
    try {
      browser = await this.launch(prepared);
      const key = req.headers['sec-websocket-key']!.trim();
      const upstream = await this.dial(req, browser, key);
      const early = pending.stop();
      if (this.abort.signal.aborted) {
        upstream.socket.destroy();
        throw new Error('the client went away');
      }
      const answer: [string, string][] = [];
      if (upstream.headers['sec-websocket-extensions']) answer.push(['Sec-WebSocket-Extensions', upstream.headers['sec-websocket-extensions']]);
      if (upstream.headers['sec-websocket-protocol']) answer.push(['Sec-WebSocket-Protocol', upstream.headers['sec-websocket-protocol']]);
      answer.push(['X-Pool-Session', this.id], ['X-Pool-Snapshot-Key', this.snapshotKey]);
      const socket = client as Socket;
      socket.setNoDelay?.(true);
      socket.setTimeout?.(0);
      socket.setKeepAlive?.(true, 30_000);
      client.write(switchingProtocols(key, answer));
      let ended!: (outcome: RelayOutcome) => void;
      const outcome = new Promise<RelayOutcome>((resolve) => (ended = resolve));
      const relay = new FastLane(client, early.length > 0 ? Buffer.concat([head, early]) : head, upstream.socket, upstream.head, (o) => ended(o), {
        peer: 'browser',
        screen: screens(refuseUploadsByPath, this.downloads),
      });
      this.relay = relay;
      this.state = 'open';
      log.info({ pid: browser.pid, launchMs: browser.launchMs, prepared: Boolean(prepared) }, 'session open');
      const exitedFirst = await Promise.race([outcome.then(() => false), browser.exited.then(() => true)]);
      // A crash (Browser.crash, SIGKILL) is an error the client can read, never a normal close.
      if (exitedFirst) relay.close(1011, 'the browser exited unexpectedly', { state: 'errored', reason: 'the browser exited unexpectedly' });
      const final = await outcome;
      const endedBy = this.stopping ? 'shutdown' : exitedFirst ? 'browser exit' : final === CLIENT_ENDED ? 'client' : 'browser';
      log.info(
        {
          endedBy,
          reason: final.reason,
          bytesToBrowser: relay.fromClient.bytes,
          bytesToClient: relay.toClient.bytes,
          messagesToBrowser: relay.fromClient.messages,
          messagesToClient: relay.toClient.messages,
          durationMs: Date.now() - this.startedAt.getTime(),
        },
        'session closed',
      );
    } catch (error) {
      pending.stop();
      const message = (error as Error).message;
      if (!client.destroyed) writeRefusal(client, this.stopping ? 503 : 502, this.stopping ? 'pool shutting down' : `browser failed to start: ${message}`);
      if (!this.abort.signal.aborted) log.warn({ err: message }, 'session failed to start');
    } finally {
      await this.finish(log, browser);
    }
  }

  /** The user-data dir (with a profile's files) and the browser on it. */
  private async launch(prepared: TarEntry[] | undefined): Promise<Browser> {
    await mkdir(path.join(this.userDataDir, 'Default'), { recursive: true, mode: 0o700 });
    await mkdir(path.join(this.userDataDir, DOWNLOADS_FOLDER), { mode: 0o700 });
    if (prepared) await writeEntries(path.join(this.userDataDir, 'Default'), prepared);
    const browser = await this.ctx.launch(this.userDataDir, this.abort.signal);
    this.pid = browser.pid;
    this.devtoolsPort = browser.devtoolsPort;
    return browser;
  }

  /**
   * The client's own handshake (key, subprotocol) goes to the browser, so both ends agree on
   * framing and the bytes can pass untouched; not its compression offer: the relay reads the
   * client's commands (uploads.ts), as the proxy's pipeline lane does, and deflated ones it could
   * not read.
   */
  private dial(req: IncomingMessage, browser: Browser, key: string): Promise<Upstream> {
    return dialUpstream({
      url: browser.wsUrl,
      key,
      protocol: req.headers['sec-websocket-protocol'],
      timeoutMs: HANDSHAKE_TIMEOUT_MS,
      signal: this.abort.signal,
      policy: BROWSER_SOCKET_POLICY,
    });
  }

  /** After the session (or its failed start): the browser stopped, its IndexedDB snapshot and downloads kept, its directory removed. */
  private async finish(log: Logger, browser: Browser | undefined): Promise<void> {
    this.state = 'closing';
    this.bytesToBrowser = this.relay?.fromClient.bytes ?? 0;
    this.bytesToClient = this.relay?.toClient.bytes ?? 0;
    await browser?.stop(this.ctx.config.killGraceMs);
    if (this.relay) {
      this.ctx.saveSnapshot(this.id, this.snapshotKey, await this.snapshot(log));
      const kept = await keepDownloads(
        path.join(this.userDataDir, DOWNLOADS_FOLDER),
        path.join(this.ctx.runDir, 'downloads', this.id),
        this.downloads.names,
      ).catch((err: Error) => log.error({ err: err.message }, 'could not keep the downloads'));
      if (kept) this.ctx.saveDownloads(this.id, { key: this.snapshotKey, ...kept });
    }
    await rm(this.userDataDir, { recursive: true, force: true }).catch((err: Error) => log.error({ err: err.message }, 'could not remove the user-data-dir'));
    this.state = 'closed';
    this.resolveDone();
  }

  private async snapshot(log: Logger): Promise<Snapshot> {
    const { maxArchiveBytes, maxArchiveEntries } = this.ctx.config;
    try {
      const entries: TarEntry[] = [];
      for (const root of ARCHIVE_ROOTS)
        entries.push(...(await collectEntries(path.join(this.userDataDir, 'Default'), root, { maxBytes: maxArchiveBytes, maxEntries: maxArchiveEntries })));
      if (entries.length > maxArchiveEntries) throw new ArchiveTooLargeError(`more than ${maxArchiveEntries} entries`);
      const archive = pack(entries);
      if (archive.length > maxArchiveBytes) throw new ArchiveTooLargeError(`${archive.length} bytes`);
      return { archive, files: entries.filter((e) => e.type === 'file').length };
    } catch (error) {
      if (error instanceof ArchiveTooLargeError)
        return { status: 413, error: `IndexedDB is over the ${maxArchiveBytes / 1024 / 1024} MB profile limit (${error.message})` };
      log.error({ err: (error as Error).message }, 'IndexedDB snapshot failed');
      return { status: 500, error: 'IndexedDB snapshot failed' };
    }
  }
}
