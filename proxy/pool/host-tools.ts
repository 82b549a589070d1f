// What the sandbox looks up on the host: executables on a PATH, the ids /etc already names, and a
// short run of a system tool (the probes of detectIsolation in sandbox.ts).
import { spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The first executable `name` on PATH (then the usual system directories). */
export function findExecutable(name: string, searchPath = process.env.PATH || '/usr/local/bin:/usr/bin:/bin'): string | undefined {
  for (const dir of searchPath.split(':').filter((d) => d.startsWith('/'))) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** uids and gids in [base, base + count) that /etc/passwd or /etc/group already name. */
export function usedIds(base: number, count: number): string[] {
  const taken: string[] = [];
  for (const [file, kind] of [
    ['/etc/passwd', 'uid'],
    ['/etc/group', 'gid'],
  ] as const) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const [name, , id] = line.split(':');
      const n = Number(id);
      if (name && Number.isInteger(n) && n >= base && n < base + count) taken.push(`${kind} ${n} (${name})`);
    }
  }
  return taken;
}

/** Runs a system tool to its end (killed after `timeoutMs`), keeping the last lines of its stderr. */
export function runTool(file: string, args: string[], timeoutMs = 10_000): Promise<{ ok: boolean; code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: '/usr/bin:/bin' } as unknown as NodeJS.ProcessEnv });
    let output = '';
    child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-500)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, code: null, output: error.message });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, code, output: output.trim().split('\n').slice(-2).join(' | ') });
    });
  });
}
