// The bwrap command line that runs one pool browser in its sandbox (sandbox.ts says what each
// layer keeps out and how detectIsolation finds out which layers this machine allows).
import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import type { Isolation } from './sandbox';

export const SYSTEM_DIRS = ['/bin', '/sbin', '/lib', '/lib64', '/lib32', '/libx32'];
const ETC_ENTRIES = [
  '/etc/fonts',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/pki',
  '/etc/alternatives',
  '/etc/chromium.d',
  '/etc/localtime',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
];
const POLICY_TARGETS = ['/etc/chromium/policies/managed', '/etc/opt/chrome/policies/managed'];

/**
 * Applies a Landlock ruleset (ABI ≥ 4) in which TCP connect is handled and allowed to one port only,
 * scopes abstract unix sockets and signals to the sandbox (ABI ≥ 6), then execs the rest of its
 * arguments. Exit 3: the kernel has no Landlock network rules; 4: the ruleset could not be applied.
 * `python3 -I -S -c <this> <port> -- <command…>`.
 */
const LANDLOCK_HELPER = [
  'import ctypes, os, struct, sys',
  'port = int(sys.argv[1]); argv = sys.argv[3:]',
  'libc = ctypes.CDLL(None, use_errno=True); sc = libc.syscall',
  'abi = sc(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))',
  'if abi < 4: sys.exit(3)',
  'attr = struct.pack("QQQ", 0, 2, 3) if abi >= 6 else struct.pack("QQ", 0, 2)',
  'fd = sc(444, ctypes.c_char_p(attr), ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))',
  'rule = struct.pack("QQ", 2, port)',
  'if fd < 0 or libc.prctl(38, 1, 0, 0, 0) != 0 or sc(445, fd, 2, ctypes.c_char_p(rule), 0) != 0 or sc(446, fd, 0) != 0: sys.exit(4)',
  'os.close(fd)',
  'os.execv(argv[0], argv)',
].join('\n');

export function landlockArgs(port: number): string[] {
  return ['-I', '-S', '-c', LANDLOCK_HELPER, String(port), '--'];
}

export interface SandboxTarget {
  command: string[];
  /** The uid (= gid) to run as, when the pool switches uids. */
  uid?: number;
  /** Bound read-write at the same path: the session's user-data-dir. */
  writable?: string;
  /** Environment inside the sandbox (it starts empty). */
  env?: Record<string, string>;
}

/** bwrap's arguments as they are written, and the directories they make (each made once). */
class BwrapArgs {
  readonly args: string[] = [];
  private readonly dirs = new Set<string>(['/']);

  push(...items: string[]): void {
    this.args.push(...items);
  }

  /** `path` is made by an argument already pushed. */
  made(path_: string): void {
    this.dirs.add(path_);
  }

  /** Parents bwrap would create with mode 0700 (unreadable for the browser's uid): made 0755, empty. */
  dir(path_: string): void {
    for (const ancestor of ancestors(path_)) {
      if (this.dirs.has(ancestor)) continue;
      this.dirs.add(ancestor);
      this.args.push('--perms', '0755', '--dir', ancestor);
    }
  }
}

/** The bwrap command line for `target` (the caller spawns it, detached, and owns its process group). */
export function sandboxCommand(isolation: Isolation, target: SandboxTarget): { file: string; args: string[] } {
  const bwrap = new BwrapArgs();
  systemMounts(bwrap, isolation);
  hostPaths(bwrap, isolation, target);
  bwrap.push('--clearenv');
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', TMPDIR: '/tmp', ...target.env };
  for (const [name, value] of Object.entries(env)) bwrap.push('--setenv', name, value);
  bwrap.push('--chdir', '/tmp', '--');
  if (isolation.setpriv && target.uid !== undefined) {
    // Inside the sandbox, so that bwrap (root) could bind what the uid itself may not reach.
    bwrap.push(
      isolation.setpriv,
      `--reuid=${target.uid}`,
      `--regid=${target.uid}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
    );
  }
  if (isolation.landlock) bwrap.push(isolation.landlock.python, ...landlockArgs(isolation.landlock.port));
  bwrap.push(...target.command);
  return { file: isolation.bwrap!, args: bwrap.args };
}

/** New namespaces; the system read-only; the browser policy; fresh /dev, /proc and /tmp. */
function systemMounts(bwrap: BwrapArgs, isolation: Isolation): void {
  bwrap.push('--die-with-parent', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--hostname', 'pool-browser', '--unshare-cgroup-try');
  bwrap.push('--ro-bind', '/usr', '/usr');
  bwrap.made('/usr');
  for (const system of SYSTEM_DIRS) {
    const stat = lstatOrUndefined(system);
    if (stat?.isSymbolicLink()) bwrap.push('--symlink', readlinkSync(system), system);
    else if (stat?.isDirectory()) bwrap.push('--ro-bind', system, system);
  }
  bwrap.dir('/etc');
  for (const entry of ETC_ENTRIES) if (existsSync(entry)) bwrap.push('--ro-bind', entry, entry);
  if (existsSync('/var/cache/fontconfig')) {
    bwrap.dir('/var/cache');
    bwrap.push('--ro-bind', '/var/cache/fontconfig', '/var/cache/fontconfig');
  }
  bwrap.push('--perms', '0755', '--tmpfs', '/etc/chromium');
  bwrap.made('/etc/chromium');
  if (isolation.policyDir) {
    for (const policyTarget of POLICY_TARGETS) {
      bwrap.dir(path.dirname(policyTarget));
      bwrap.push('--ro-bind', isolation.policyDir, policyTarget);
    }
  }
  bwrap.push('--dev', '/dev', '--proc', '/proc', '--perms', '1777', '--tmpfs', '/tmp');
  bwrap.made('/tmp');
}

/** The host's own paths: hidden ones masked, the extra read-only ones, the session's writable one. */
function hostPaths(bwrap: BwrapArgs, isolation: Isolation, target: SandboxTarget): void {
  // DATA_DIR or the project under a bound directory (a project in /usr/src/app): masked, empty.
  for (const hidden of isolation.hidden) {
    if (!isUnder(hidden, ['/usr', ...SYSTEM_DIRS, ...isolation.extraReadOnly])) continue;
    bwrap.push('--perms', '0755', '--tmpfs', hidden);
    bwrap.made(hidden);
  }
  for (const readOnly of isolation.extraReadOnly) {
    bwrap.dir(path.dirname(readOnly));
    bwrap.push('--ro-bind', readOnly, readOnly);
    bwrap.made(readOnly);
  }
  if (target.writable) {
    bwrap.dir(path.dirname(target.writable));
    bwrap.push('--bind', target.writable, target.writable);
  }
}

function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let current = path.resolve(p); current !== path.dirname(current); current = path.dirname(current)) out.unshift(current);
  return out;
}

export function isUnder(p: string, roots: string[]): boolean {
  return roots.some((r) => p === r || p.startsWith(`${r}/`));
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}
