// The daemon behind one `gateway browse --session <name>` (docs/gateway.md, "browse"): started
// detached by the first command that needs it (proxy/cli/browse-client.mjs), it listens on the
// session's Unix socket and holds one agent browser (proxy/agent/), opened with the endpoint and
// token the first command resolved. Requests are newline-delimited JSON, one answer each; verbs
// run one at a time, through the same tool definitions as MCP (proxy/agent/tools.ts), so that a
// command behaves as the tool does. It exits when `close` is run, when the browser was idle for
// --idle-minutes, when the browser goes away, or when its socket is removed or taken over; it
// removes its socket on the way out, and leaves a note of why it closed (other than `close`) for
// the next command of the session to print.
import { closeSync, constants, openSync } from 'node:fs';
import net from 'node:net';
import { agentTools } from '../agent/tools';
import { AgentError } from '../agent/types';
import { agentError } from '../agent/cdp';
import { PROTOCOL, ensureDir, sessionFiles, type SessionFiles, type WireAnswer, type WireRequest } from './browse-wire.mjs';
import { checkRequest, validSession } from './browse-args.mjs';
import { checkSameBrowser, openSessionBrowser, type Browser } from './browse-browser';
import { forTheShell } from './browse-words';
import { leaveClosedNote, SessionSocket, takeClosedNote } from './browse-socket';
import { runVerb, VerbFailed } from './browse-verbs';
import { gatewayDataDir } from './data-dir';
import { CliError, UsageError } from './output';

/** A request longer than this is refused (fill and eval take up to 100,000 characters). */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;
/** A daemon that opened no browser within this long exits (the command that started it went away). */
const NO_BROWSER_MS = 60_000;
/** How long the way out waits for answers still being written. */
const EXIT_WAIT_MS = 5_000;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function log(message: string): void {
  process.stderr.write(`${new Date().toISOString()} ${message}\n`);
}

class BrowseDaemon {
  private readonly server = net.createServer((connection) => this.onConnection(connection));
  private readonly tools = new Map(agentTools().map((tool) => [tool.name, tool]));
  private readonly startedAt = new Date();
  private browser: Browser | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Requests received and not yet answered. */
  private busy = 0;
  private idleWaiters: (() => void)[] = [];
  private closing: string | null = null;
  private closedByVerb = false;
  private exitAfterAnswer = false;
  private readonly socket: SessionSocket;
  private noBrowserTimer: NodeJS.Timeout | null = null;
  /** Why the session's previous daemon ended, to say so once a new browser opens. */
  private previous: { reason: string; at: string } | null = null;

  constructor(
    private readonly name: string,
    private readonly files: SessionFiles,
  ) {
    this.socket = new SessionSocket(files.socket, name, log);
  }

  /** Listens; false when another daemon of the session already does (this one then ends). */
  async start(): Promise<boolean> {
    if (!(await this.socket.listen(this.server))) return false;
    this.previous = takeClosedNote(this.files.closed);
    // The log is this daemon's from here on (the command that started it appends to it).
    try {
      closeSync(openSync(this.files.log, constants.O_WRONLY | constants.O_TRUNC | NOFOLLOW));
    } catch {
      // no log: started by hand
    }
    log(`session "${this.name}" listening on ${this.files.socket} (pid ${process.pid})`);
    this.socket.watch(() => void this.shutdown('its socket was removed or taken over', false));
    this.armNoBrowser();
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void this.shutdown(`stopped by ${signal}`, true));
    process.on('exit', () => this.socket.remove());
    process.on('uncaughtException', (error) => {
      log(`error: ${error.stack ?? error}`);
      void this.shutdown(`the session failed: ${error.message}`, true);
    });
    process.on('unhandledRejection', (error) => log(`unhandled rejection: ${(error as Error)?.stack ?? error}`));
    return true;
  }

  private armNoBrowser(): void {
    if (this.noBrowserTimer) clearTimeout(this.noBrowserTimer);
    this.noBrowserTimer = setTimeout(() => {
      if (this.browser) return;
      if (this.busy > 0) this.armNoBrowser();
      else void this.shutdown('no browser was opened', false);
    }, NO_BROWSER_MS).unref();
  }

  private onConnection(connection: net.Socket): void {
    connection.setEncoding('utf8');
    let buffer = '';
    let chain: Promise<unknown> = Promise.resolve();
    connection.on('error', () => {});
    connection.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) {
        connection.destroy();
        return;
      }
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        this.busy++;
        chain = chain.then(() => this.answer(connection, line));
      }
    });
  }

  private async answer(connection: net.Socket, line: string): Promise<void> {
    let answer: WireAnswer;
    try {
      answer = await this.handle(JSON.parse(line) as WireRequest);
    } catch (error) {
      answer = { ok: false, error: `not a request: ${(error as Error).message}` };
    }
    await new Promise<void>((resolve) => {
      if (connection.destroyed) return resolve();
      connection.write(`${JSON.stringify(answer)}\n`, () => resolve());
    });
    this.busy--;
    if (this.busy === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    if (this.closedByVerb) void this.shutdown('closed by gateway browse close', false);
    // A daemon whose browser could not be opened ends, unless another command is on its way.
    else if (this.exitAfterAnswer && !this.browser && this.busy === 0) void this.shutdown('no browser could be opened', false);
  }

  private async handle(request: WireRequest): Promise<WireAnswer> {
    if (request.verb === 'status') return { ok: true, result: await this.status() };
    if (this.closing || this.closedByVerb) return this.closingAnswer();
    if (request.v !== PROTOCOL)
      return {
        ok: false,
        error: `browse session "${this.name}" runs another version of gateway; close it (gateway browse close --session ${this.name}), then run the command again`,
      };
    const run = this.queue.then(() => this.run(request));
    this.queue = run.catch(() => {});
    return run;
  }

  private closingAnswer(): WireAnswer {
    return {
      ok: false,
      error: `browse session "${this.name}" is closing (${this.closing ?? 'closed by gateway browse close'}); run the command again to start a new browser`,
    };
  }

  /** One verb, after the ones before it. */
  private async run(request: WireRequest): Promise<WireAnswer> {
    if (this.closing || this.closedByVerb) return this.closingAnswer();
    const notes: string[] = [];
    try {
      if (request.flags?.session !== this.name) throw new UsageError(`this is browse session "${this.name}", not "${request.flags?.session}"`);
      const checked = checkRequest(request.verb, Array.isArray(request.args) ? request.args.map(String) : [], request.flags);
      if (checked.error !== undefined) throw new UsageError(checked.error);
      const { verb, args, flags } = checked.request;
      if (verb === 'close') return this.close();
      if (verb === 'sessions') throw new UsageError('sessions is answered by the command itself');
      const browser = await this.open(request, notes);
      return { ok: true, result: await runVerb({ tools: this.tools, sessions: browser.set, session: browser.session }, verb, args, flags), notes };
    } catch (thrown) {
      const error = agentError(thrown);
      if (!this.browser) this.exitAfterAnswer = true;
      const known = error instanceof CliError || error instanceof VerbFailed || error instanceof AgentError;
      if (!known) log(`error: ${(error as Error).stack ?? error}`);
      return { ok: false, error: forTheShell((error as Error).message), usage: error instanceof UsageError, notes };
    }
  }

  /** The session's browser: opened with the command's endpoint and token the first time. */
  private async open(request: WireRequest, notes: string[]): Promise<Browser> {
    if (this.browser) {
      checkSameBrowser(this.name, this.browser, request.flags, notes);
      return this.browser;
    }
    const browser = await openSessionBrowser(request);
    const session = browser.session;
    this.browser = browser;
    if (this.noBrowserTimer) clearTimeout(this.noBrowserTimer);
    session.onClose((reason) => {
      if (!this.closedByVerb) void this.shutdown(forTheShell(reason), true);
    });
    log(`browser ${session.id} open through ${browser.shown} (${browser.kind})`);
    if (this.previous) {
      const reason = forTheShell(this.previous.reason);
      notes.push(
        `the previous browser of session "${this.name}" ${reason.startsWith('closed') ? reason : `closed: ${reason}`} (${this.previous.at}); this command started a new one, and refs from before no longer work`,
      );
      this.previous = null;
    }
    return this.browser;
  }

  private async close(): Promise<WireAnswer> {
    const had = this.browser !== null;
    this.closedByVerb = true;
    await this.browser?.set.closeAll('closed by gateway browse close');
    const text = had ? `Closed the browser of session "${this.name}".` : `No browser was open in session "${this.name}".`;
    return { ok: true, result: { closed: had, text } };
  }

  private async status(): Promise<Record<string, unknown>> {
    const base = { session: this.name, pid: process.pid, startedAt: this.startedAt.toISOString() };
    const browser = this.browser;
    if (!browser || browser.session.closed)
      return { ...base, endpoint: browser?.shown ?? null, browser: false, idleCloseAt: null, url: null, title: null, tabs: 0 };
    const state = await browser.session.state();
    const current = state.tabs.find((t) => t.current);
    return {
      ...base,
      endpoint: browser.shown,
      kind: browser.kind,
      browser: true,
      idleMinutes: state.idleMinutes,
      idleCloseAt: state.idleCloseAt,
      url: current?.url ?? null,
      title: current?.title ?? null,
      tabs: state.tabs.length,
    };
  }

  /** Ends the daemon: no new connections, the socket removed, the browser closed, answers written. */
  async shutdown(reason: string, note: boolean): Promise<void> {
    if (this.closing) return;
    this.closing = reason;
    log(`session "${this.name}" ends: ${reason}`);
    this.socket.stop();
    if (this.noBrowserTimer) clearTimeout(this.noBrowserTimer);
    this.server.close();
    this.socket.remove();
    if (note) leaveClosedNote(this.files.closed, reason, log);
    await this.browser?.set.closeAll(reason).catch(() => {});
    if (this.busy > 0) {
      await Promise.race([new Promise<void>((resolve) => this.idleWaiters.push(resolve)), new Promise((resolve) => setTimeout(resolve, EXIT_WAIT_MS))]);
    }
    process.exit(0);
  }
}

/** Runs the daemon of a session; resolves to 0 at once when another one already runs, else keeps running. */
export async function runDaemon(session: string): Promise<number> {
  if (!validSession(session)) {
    log(`error: "${session}" is not a session name`);
    return 2;
  }
  try {
    const files = sessionFiles(gatewayDataDir(), session);
    ensureDir(files.dir);
    // Whatever the daemon creates (its socket, notes) is the user's alone.
    process.umask(0o077);
    const daemon = new BrowseDaemon(session, files);
    await daemon.start();
    return 0;
  } catch (error) {
    log(`error: ${(error as Error).message}`);
    return 1;
  }
}
