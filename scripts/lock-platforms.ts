/**
 * Completes package-lock.json with the other platforms' native packages.
 *
 * The registry these machines reach hosts only the Linux builds of packages such as
 * `@next/swc-*` and `@tailwindcss/oxide-*`, so `npm install` writes a lock without the
 * darwin/win32/… entries, and `npm ci` then refuses the lock as out of sync. This script adds
 * each missing optional dependency as an entry restricted to its own os/cpu (read from the
 * package name, as those packages declare them), which `npm ci` skips on Linux without fetching.
 *
 * The lock is written in npm's own key order (npmLockText), so a later `npm install` finds nothing
 * to rewrite. Run after changing dependencies: `npm run lock:platforms`, then commit the lock.
 * `--check` exits 1 when entries are missing (used by the unit tests).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type LockEntry = {
  version?: string;
  optional?: boolean;
  dev?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
};

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = ['x64', 'arm64', 'arm', 'ia32', 'wasm32', 'riscv64', 'ppc64', 's390x', 'loong64'];

/** The os/cpu/libc a platform package is built for, from the words of its name. */
export function platformOf(name: string): { os?: string[]; cpu?: string[]; libc?: string[] } | null {
  const words = name.split('/').pop()!.split('-');
  const os = words.find((w) => OS.includes(w));
  const cpu = words.find((w) => CPU.includes(w));
  if (!os && !cpu) return null;
  const libc = words.some((w) => w.startsWith('musl')) ? ['musl'] : words.some((w) => w.startsWith('gnu')) ? ['glibc'] : undefined;
  return { ...(os && { os: [os] }), ...(cpu && { cpu: [cpu] }), ...(libc && { libc }) };
}

// How npm 11 writes package-lock.json (json-stringify-nice as @npmcli/arborist calls it): these keys
// first in this order, then the rest by `localeCompare(…, 'en')`, in every object, with scalar and
// array values before object values. Written any other way, the next `npm install` rewrites the lock.
const NPM_KEY_ORDER = ['name', 'version', 'lockfileVersion', 'resolved', 'integrity', 'requires', 'packages', 'dependencies'];
const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object' && !Array.isArray(value);

function compareKeys(a: string, b: string): number {
  const [ra, rb] = [NPM_KEY_ORDER.indexOf(a), NPM_KEY_ORDER.indexOf(b)];
  if (ra >= 0 || rb >= 0) return ra < 0 ? 1 : rb < 0 ? -1 : ra - rb;
  return a.localeCompare(b, 'en');
}

/** The lock's text exactly as npm would write it. */
export function npmLockText(lock: unknown): string {
  const sorted = (_key: string, value: unknown) =>
    isObject(value)
      ? Object.fromEntries(Object.entries(value).sort(([ak, av], [bk, bv]) => (isObject(av) === isObject(bv) ? compareKeys(ak, bk) : isObject(av) ? 1 : -1)))
      : value;
  return `${JSON.stringify(lock, sorted, 2)}\n`;
}

/** Adds the missing entries; returns the names added. */
export function completeLock(lock: { packages: Record<string, LockEntry> }): string[] {
  const added: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
      const base = key === '' ? 'node_modules' : key.slice(0, key.lastIndexOf('node_modules') + 'node_modules'.length);
      const nested = key === '' ? `node_modules/${dep}` : `${key}/node_modules/${dep}`;
      const hoisted = `${base}/${dep}`;
      if (lock.packages[nested] || lock.packages[hoisted] || lock.packages[`node_modules/${dep}`]) continue;
      const platform = platformOf(dep);
      if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
      lock.packages[`node_modules/${dep}`] = {
        version,
        ...platform,
        ...(entry.dev && { dev: true }),
        ...(typeof entry.license === 'string' && { license: entry.license }),
        optional: true,
      };
      added.push(`${dep}@${version}`);
    }
  }
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
  return added;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const file = path.resolve(import.meta.dirname, '..', 'package-lock.json');
  const text = readFileSync(file, 'utf8');
  const lock = JSON.parse(text);
  const added = completeLock(lock);
  if (process.argv.includes('--check')) {
    if (added.length || text !== npmLockText(lock)) {
      console.error(`package-lock.json lacks ${added.length} platform entries or is not in npm's format; run npm run lock:platforms`);
      process.exit(1);
    }
  } else {
    writeFileSync(file, npmLockText(lock));
    console.log(added.length ? `added ${added.join(', ')}` : 'lock already complete');
  }
}
