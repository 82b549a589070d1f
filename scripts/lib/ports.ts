import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A TCP port on loopback that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once the process `child` accepts TCP connections on the port. No deadline: a process
 * still starting (compiling TypeScript on a loaded machine) is waited for as long as it lives;
 * its exit first rejects, naming it. `onSlow` hears every `slowMs` while it is waited for.
 */
export async function waitForListening(
  child: ChildProcess,
  port: number,
  options: { name?: string; host?: string; slowMs?: number; onSlow?: (waitedMs: number) => void } = {},
): Promise<void> {
  const host = options.host ?? '127.0.0.1';
  const name = options.name ?? `the process ${child.pid}`;
  const started = Date.now();
  let nextNote = started + (options.slowMs ?? 15_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before it listened on ${host}:${port}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() >= nextNote) {
      options.onSlow?.(Date.now() - started);
      nextNote += options.slowMs ?? 15_000;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface NamedPort {
  /** The setting that chooses the port, named in the message (e.g. `PORT`). */
  setting: string;
  port: number;
  /** Where the process binds, when not the shared `host`. */
  host?: string;
}

/**
 * Refuses, with a message that names the settings, ports that two processes would share or that
 * something else already holds. Checked before anything starts, so a clash is not discovered as
 * a child's crash after the addresses were printed (or, worse, hidden because the foreign
 * process answers the readiness probe).
 */
export async function assertPortsFree(ports: NamedPort[], host: string): Promise<void> {
  for (const [i, a] of ports.entries()) {
    if (!Number.isInteger(a.port) || a.port < 1 || a.port > 65_535) throw new Error(`${a.setting}=${a.port} is not a TCP port (1–65535)`);
    const b = ports.slice(i + 1).find((other) => other.port === a.port);
    if (b) throw new Error(`${a.setting} and ${b.setting} are both ${a.port}; give each process its own port`);
  }
  for (const { setting, port, host: own } of ports) {
    const bindHost = own ?? host;
    const problem = await new Promise<string | null>((resolve) => {
      const server = net.createServer();
      server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      server.listen(port, bindHost, () => server.close(() => resolve(null)));
    });
    if (problem === 'EADDRINUSE')
      throw new Error(`port ${port} (${setting}) is already in use on ${bindHost}: is another copy running? Stop it or set ${setting} to a free port`);
    if (problem) throw new Error(`cannot listen on ${bindHost}:${port} (${setting}): ${problem}`);
  }
}
