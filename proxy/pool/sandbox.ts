// Isolation of the pool's browsers from the host (README.md in this folder, "Isolation"):
//   1. each Chromium runs under bubblewrap (bwrap) in a private, minimal view of the filesystem:
//      /usr (and the /bin, /lib… links or directories), a few /etc entries, a fresh /dev, /proc (own
//      pid namespace) and /tmp, a managed-policy directory, and its own user-data-dir, nothing
//      else: not DATA_DIR, not the other sessions' directories, not the project;
//   2. as an unprivileged uid of its own (POOL_UID_BASE + slot) when the pool runs as root, so that
//      Chromium's own sandbox (user namespaces + seccomp) can stay on, and browsers cannot signal,
//      trace or read each other;
//   3. with a Chromium managed policy that refuses file:// and the other local-state schemes for
//      every navigation, pins the egress proxy, and keeps WebRTC on it;
//   4. under a Landlock rule that lets its processes open TCP connections to the egress proxy's
//      port only: a CDP client can give a browser context a proxy of its own
//      (Target.createBrowserContext({ proxyServer })), which no Chromium policy overrides; the
//      kernel then refuses the connection to it.
// What can be kept on is found out at start (detectIsolation) and logged; without bwrap the pool
// refuses to start unless POOL_ISOLATION=none says otherwise.
import { realpathSync } from 'node:fs';
import { chmod, lchown, lstat, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserPolicy } from './browser-policy';
import { findExecutable, runTool, usedIds } from './host-tools';
import { isUnder, landlockArgs, sandboxCommand, SYSTEM_DIRS } from './sandbox-command';

export type IsolationSetting = 'sandbox' | 'none';

/** The project's root: never visible to a browser, even when it lies under /usr. */
export const PROJECT_DIR = path.resolve(fileURLToPath(new URL('../../', import.meta.url)));

export interface Isolation {
  /** What is in force, as logged at start and shown in /pool/status: `bwrap+uid+chromium-sandbox`, … */
  level: string;
  /** bwrap's path, when browsers run under it. */
  bwrap?: string;
  /** setpriv's path and the first uid, when every browser runs as a uid of its own (pool running as root). */
  setpriv?: string;
  uidBase?: number;
  /** Chromium's own sandbox (namespaces + seccomp-bpf) is on: no `--no-sandbox`. */
  chromiumSandbox: boolean;
  /** The directory bound as /etc/chromium/policies/managed. */
  policyDir?: string;
  /** python3 (inside the sandbox) applying the Landlock rule, and the one TCP port it allows. */
  landlock?: { python: string; port: number };
  /** Paths masked with an empty tmpfs because they would otherwise show through a bound directory. */
  hidden: string[];
  /** Read-only binds beyond the system ones (the directory of a CHROMIUM_PATH outside /usr). */
  extraReadOnly: string[];
  /** Why a layer is missing, for the log and the README's table. */
  notes: string[];
}

export const NO_ISOLATION: Isolation = { level: 'none', chromiumSandbox: false, hidden: [], extraReadOnly: [], notes: [] };

export interface IsolationOptions {
  setting: IsolationSetting;
  uidBase: number;
  /** How many uids from uidBase the pool may use (one per browser slot). */
  slots: number;
  chromiumPath: string;
  dataDir: string;
  /** The pool's run directory: the policy directory is created in it. */
  runDir: string;
  proxyUrl: string;
}

/** Finds out what isolation this machine allows; throws when it cannot give what was asked. */
export async function detectIsolation(options: IsolationOptions): Promise<Isolation> {
  const root = process.getuid?.() === 0;
  const unshare = sandboxTool('unshare');
  if (options.setting === 'none') return withoutSandbox(root, unshare);

  const bwrap = findExecutable('bwrap');
  if (!bwrap)
    throw new Error(
      'bwrap (bubblewrap) not found: the pool isolates every browser with it. Install it (apt-get install bubblewrap) or set POOL_ISOLATION=none to run browsers without isolation',
    );
  const notes: string[] = [];
  const { setpriv, uidBase } = browserUids(options, root, notes);

  const egressPort = Number(new URL(options.proxyUrl).port);
  const hidden = [options.dataDir, PROJECT_DIR];
  const extraReadOnly = executableDir(options.chromiumPath, hidden);
  const policyDir = await writePolicyDir(options);

  const isolation: Isolation = { level: '', bwrap, setpriv, uidBase, chromiumSandbox: false, policyDir, hidden, extraReadOnly, notes };
  // 1. Does bwrap work here at all (as root; as another user it needs user namespaces)?
  const probe: Probe = (command) => {
    const c = sandboxCommand(isolation, { command, uid: uidBase });
    return runTool(c.file, c.args);
  };
  const basic = await probe(['/bin/true']);
  if (!basic.ok)
    throw new Error(
      `bwrap cannot create a sandbox on this machine (${basic.output || 'no output'}). Fix that (user namespaces for a pool not running as root) or set POOL_ISOLATION=none`,
    );
  await probeChromiumSandbox(isolation, probe, unshare);
  await probeLandlock(isolation, probe, egressPort);
  isolation.level = levelOf(isolation);
  return isolation;
}

/** Runs a command inside the sandbox being probed. */
type Probe = (command: string[]) => ReturnType<typeof runTool>;

/** POOL_ISOLATION=none: no bwrap, no uid of its own, no policy; only Chromium's own sandbox where it works. */
async function withoutSandbox(root: boolean, unshare: string | undefined): Promise<Isolation> {
  // As root Chromium refuses its sandbox; as another user it may keep it (if user namespaces work).
  const chromiumSandbox = !root && unshare !== undefined && (await runTool(unshare, USERNS_PROBE_ARGS)).ok;
  return {
    ...NO_ISOLATION,
    level: chromiumSandbox ? 'none+chromium-sandbox' : 'none',
    chromiumSandbox,
    notes: ["POOL_ISOLATION=none: browsers see the whole filesystem as the pool's user and file:// is not refused"],
  };
}

/** As root, setpriv and the range of uids every browser slot runs as; otherwise neither (and a note why). */
function browserUids(options: IsolationOptions, root: boolean, notes: string[]): { setpriv?: string; uidBase?: number } {
  if (!root) {
    notes.push(`the pool does not run as root: browsers run as its own uid (${process.getuid?.()}) inside bwrap's user namespace, not one uid per browser`);
    return {};
  }
  const setpriv = sandboxTool('setpriv');
  if (!setpriv)
    throw new Error(
      'setpriv (util-linux) not found: as root the pool needs it to run each browser as a uid of its own. Install util-linux or set POOL_ISOLATION=none',
    );
  const uidBase = options.uidBase;
  const taken = usedIds(uidBase, options.slots);
  if (taken.length > 0)
    throw new Error(
      `POOL_UID_BASE=${uidBase}: uids/gids ${uidBase}–${uidBase + options.slots - 1} are for pool browsers only, but ${taken.join(', ')} exist in /etc/passwd or /etc/group. Choose another POOL_UID_BASE`,
    );
  return { setpriv, uidBase };
}

/** Creates the managed-policy directory in the run directory and writes the pool's policy into it. */
async function writePolicyDir(options: IsolationOptions): Promise<string> {
  const policyDir = path.join(options.runDir, 'policy');
  await mkdir(policyDir, { recursive: true, mode: 0o755 });
  await chmod(policyDir, 0o755);
  await writeFile(path.join(policyDir, 'pool.json'), JSON.stringify(browserPolicy(options.proxyUrl), null, 2), { mode: 0o644 });
  return policyDir;
}

/** 2. Can the browser's user create the namespaces Chromium's own sandbox is made of, inside it? */
async function probeChromiumSandbox(isolation: Isolation, probe: Probe, unshare: string | undefined): Promise<void> {
  if (!unshare) {
    isolation.chromiumSandbox = true; // cannot check: keep it on, a failure shows at calibration
    return;
  }
  const userns = await probe([unshare, ...USERNS_PROBE_ARGS]);
  isolation.chromiumSandbox = userns.ok;
  if (!userns.ok)
    isolation.notes.push(
      `Chromium's own sandbox is off (--no-sandbox): the browser's user cannot create user namespaces here (${userns.output || 'unshare failed'}); bwrap${isolation.uidBase !== undefined ? ', the uid' : ''} and the policy still confine it`,
    );
}

/** 3. Landlock (Linux ≥ 6.7): TCP connections to the egress proxy only. */
async function probeLandlock(isolation: Isolation, probe: Probe, egressPort: number): Promise<void> {
  const python = sandboxTool('python3');
  if (!python) {
    isolation.notes.push(
      "no Landlock rule (python3 not found in /usr/bin): only the managed proxy policy keeps pages on the egress proxy, and a CDP client's per-context proxy is not refused",
    );
    return;
  }
  const landlock = await probe([python, ...landlockArgs(egressPort), '/bin/true']);
  if (landlock.ok) isolation.landlock = { python, port: egressPort };
  else
    isolation.notes.push(
      `no Landlock rule (${landlock.code === 3 ? 'the kernel has no Landlock network rules: Linux 6.7 or later' : landlock.output || `exit ${landlock.code}`}): only the managed proxy policy keeps pages on the egress proxy, and a CDP client's per-context proxy is not refused`,
    );
}

/** The level logged and shown in /pool/status: the layers in force, joined with `+`. */
function levelOf(isolation: Isolation): string {
  return [
    'bwrap',
    ...(isolation.uidBase !== undefined ? ['uid'] : []),
    ...(isolation.chromiumSandbox ? ['chromium-sandbox'] : []),
    ...(isolation.landlock ? ['landlock'] : []),
  ].join('+');
}

/** What Chromium's namespace sandbox needs: a user, pid and network namespace. */
const USERNS_PROBE_ARGS = ['--user', '--map-root-user', '--pid', '--net', '--fork', '/bin/true'];

/** Gives a fresh directory tree (user-data-dir) to the browser's uid; links are never followed. */
export async function chownTree(dir: string, uid: number): Promise<void> {
  await lchown(dir, uid, uid);
  for (const name of await readdir(dir)) {
    const child = path.join(dir, name);
    const stat = await lstat(child);
    if (stat.isDirectory()) await chownTree(child, uid);
    else await lchown(child, uid, uid);
  }
}

/** Environment variables handed to a browser (the pool's own environment holds secrets). */
export function browserEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['LANG', 'LC_ALL', 'LC_CTYPE', 'TZ']) if (source[name]) env[name] = source[name]!;
  return env;
}

/** The directory of a CHROMIUM_PATH outside the system directories, bound read-only; [] otherwise. */
function executableDir(chromiumPath: string, hidden: string[]): string[] {
  let real: string;
  try {
    real = realpathSync(chromiumPath);
  } catch {
    return []; // missing: calibration reports it
  }
  const dir = path.dirname(real);
  if (isUnder(dir, ['/usr', ...SYSTEM_DIRS])) return [];
  const exposed = hidden.filter((h) => h === dir || h.startsWith(`${dir}/`));
  if (exposed.length > 0)
    throw new Error(
      `CHROMIUM_PATH ${chromiumPath} lies in ${dir}, which would be bound into every browser's sandbox and contains ${exposed.join(' and ')}. Put the browser in a directory of its own`,
    );
  return [dir];
}

/** A tool run inside the sandbox: the system's own (not a PATH shim), in a directory the sandbox binds. */
function sandboxTool(name: string): string | undefined {
  const found = findExecutable(name, '/usr/bin:/bin:/usr/sbin:/sbin');
  if (!found) return undefined;
  const real = realpathSync(found);
  return isUnder(real, ['/usr', ...SYSTEM_DIRS]) ? real : undefined;
}
