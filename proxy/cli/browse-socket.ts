// What a `gateway browse` daemon keeps in its session's folder (proxy/cli/browse-wire.mjs names
// the files): the Unix socket it listens on, owned by one daemon at a time, and the note a daemon
// that closed leaves for the next command of the session to print.
import { closeSync, constants, lstatSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import type net from 'node:net';
import { readPrivateFile } from '../../lib/fs/private-file';
import { connectTo } from './browse-wire.mjs';

/** How often a daemon checks that its socket is still its own. */
const SOCKET_CHECK_MS = 2_000;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The session's socket: listened on by one daemon, which ends when the file is removed or replaced. */
export class SessionSocket {
  private ino = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string,
    private readonly session: string,
    private readonly log: (message: string) => void,
  ) {}

  /** Listens on the socket; false when another daemon of the session already does. */
  async listen(server: net.Server): Promise<boolean> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(this.file, () => {
            server.off('error', reject);
            resolve();
          });
        });
        this.ino = lstatSync(this.file).ino;
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
        const other = await connectTo(this.file).catch(() => null);
        if (other) {
          other.destroy();
          this.log(`session "${this.session}" already has a daemon; this one ends`);
          return false;
        }
        // A socket nobody listens on: left by a daemon that died. Take its place.
        try {
          unlinkSync(this.file);
        } catch {
          // removed meanwhile
        }
      }
    }
    throw new Error(`could not listen on ${this.file}`);
  }

  /** Calls `lost` once the socket was removed or replaced (by a daemon started at the same moment). */
  watch(lost: () => void): void {
    this.timer = setInterval(() => {
      let ino = 0;
      try {
        ino = lstatSync(this.file).ino;
      } catch {
        // gone
      }
      if (ino !== this.ino) lost();
    }, SOCKET_CHECK_MS).unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Removes the socket if it is still this daemon's. */
  remove(): void {
    try {
      if (this.ino && lstatSync(this.file).ino === this.ino) unlinkSync(this.file);
    } catch {
      // already gone
    }
  }
}

/** Leaves the note of why the session closed, for the next command to print. */
export function leaveClosedNote(file: string, reason: string, log: (message: string) => void): void {
  try {
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o600);
    try {
      writeFileSync(fd, `${JSON.stringify({ reason, at: new Date().toISOString() })}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    log(`could not leave the closed note: ${(error as Error).message}`);
  }
}

/** Reads and removes the note the session's previous daemon left; null when there is none. */
export function takeClosedNote(file: string): { reason: string; at: string } | null {
  let text: string;
  try {
    const bytes = readPrivateFile(file);
    if (!bytes) return null;
    text = bytes.toString('utf8');
    unlinkSync(file);
  } catch {
    return null;
  }
  try {
    const note = JSON.parse(text) as { reason?: unknown; at?: unknown };
    return typeof note.reason === 'string' && typeof note.at === 'string' ? { reason: note.reason, at: note.at } : null;
  } catch {
    return null;
  }
}
