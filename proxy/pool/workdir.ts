// The pool's directory: <DATA_DIR>/pool/run-<pid>-<random>/<session id>/ is the user-data-dir of
// one browser. A run directory belongs to one pool process (owner.json); at start, the run
// directories of pools that are no longer running are removed, after killing any browser that
// still uses them (a crashed pool leaves its browsers behind: they live in their own groups).
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../lib/log';

interface Owner {
  pid: number;
  cmdline: string;
}

export interface WorkDir {
  runDir: string;
  remove(): Promise<void>;
}

export async function createWorkDir(dataDir: string, log: Logger): Promise<WorkDir> {
  const root = path.join(path.resolve(dataDir), 'pool');
  await mkdir(root, { recursive: true, mode: 0o700 });
  for (const name of await readdir(root)) {
    if (!name.startsWith('run-')) continue;
    const dir = path.join(root, name);
    if (await ownerRunning(dir)) {
      log.warn({ dir }, 'another pool is running on this data directory; leaving its files alone');
      continue;
    }
    const killed = await killBrowsersUnder(dir);
    await rm(dir, { recursive: true, force: true });
    log.info({ dir, killedProcesses: killed }, 'removed the leftovers of a previous run');
  }
  const runDir = path.join(root, `run-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(runDir, { mode: 0o700 });
  const owner: Owner = { pid: process.pid, cmdline: (await cmdlineOf(process.pid)) ?? '' };
  await writeFile(path.join(runDir, 'owner.json'), JSON.stringify(owner));
  return { runDir, remove: () => rm(runDir, { recursive: true, force: true }) };
}

async function ownerRunning(dir: string): Promise<boolean> {
  const owner = await readFile(path.join(dir, 'owner.json'), 'utf8')
    .then((t) => JSON.parse(t) as Owner)
    .catch(() => undefined);
  if (!owner || owner.pid === process.pid) return false; // a pid reused after a reboot or in a container
  try {
    process.kill(owner.pid, 0);
  } catch {
    return false;
  }
  const cmdline = await cmdlineOf(owner.pid);
  return cmdline === undefined || cmdline === owner.cmdline; // no /proc: trust the pid
}

/** SIGKILLs every process whose command line names a user-data-dir below `dir`; returns how many. */
export async function killBrowsersUnder(dir: string): Promise<number> {
  const marker = `--user-data-dir=${dir}${path.sep}`;
  const victims = (await processes()).filter((p) => p.cmdline.includes(marker));
  for (const { pid } of victims) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  // Wait for them to be gone before the caller removes the directory under their feet.
  const deadline = Date.now() + 5_000;
  while (victims.length > 0 && Date.now() < deadline && (await processes()).some((p) => p.cmdline.includes(marker))) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return victims.length;
}

/** Processes (pid and NUL-separated command line turned into spaces) as /proc shows them; [] elsewhere. */
export async function processes(): Promise<{ pid: number; cmdline: string }[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const out: { pid: number; cmdline: string }[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await cmdlineOf(Number(name));
    if (cmdline) out.push({ pid: Number(name), cmdline });
  }
  return out;
}

async function cmdlineOf(pid: number): Promise<string | undefined> {
  return readFile(`/proc/${pid}/cmdline`, 'utf8')
    .then((t) => t.replaceAll('\0', ' ').trim())
    .catch(() => undefined);
}
