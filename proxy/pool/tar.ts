// The IndexedDB archive format: a POSIX tar (ustar, with pax headers for long names), in memory.
// Written here rather than by the system `tar` because uploads are untrusted: reading them means
// accepting only regular files and directories under one root, never links, devices or `..`.
// Archives from GNU tar or bsdtar (`tar -cf - IndexedDB` inside `Default/`) are accepted too.
import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const BLOCK = 512;

export interface TarEntry {
  /** Relative path with `/` separators; directories end without a slash. */
  path: string;
  type: 'file' | 'dir';
  data: Buffer;
}

export class ArchiveError extends Error {}
export class ArchiveTooLargeError extends ArchiveError {}

/** What a session's storage archive holds: the folders of the browser profile's `Default/` that are kept. */
export const ARCHIVE_ROOTS = ['IndexedDB', 'Local Storage'] as const;

export interface Limits {
  maxBytes: number;
  maxEntries: number;
}

/** Entries of `dir/<root>` (recursively), paths starting with `<root>/`. Regular files and directories only. */
export async function collectEntries(dir: string, root: string, limits: Limits): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  let bytes = 0;
  async function walk(relative: string): Promise<void> {
    const names = (await readdir(path.join(dir, relative))).sort();
    for (const name of names) {
      const rel = `${relative}/${name}`;
      const stat = await lstat(path.join(dir, rel));
      if (stat.isDirectory()) {
        entries.push({ path: rel, type: 'dir', data: Buffer.alloc(0) });
        await walk(rel);
      } else if (stat.isFile()) {
        bytes += stat.size;
        if (bytes > limits.maxBytes) throw new ArchiveTooLargeError(`more than ${limits.maxBytes} bytes`);
        entries.push({ path: rel, type: 'file', data: await readFile(path.join(dir, rel)) });
      }
      if (entries.length > limits.maxEntries) throw new ArchiveTooLargeError(`more than ${limits.maxEntries} entries`);
    }
  }
  const rootStat = await lstat(path.join(dir, root)).catch(() => undefined);
  if (!rootStat?.isDirectory()) return [];
  entries.push({ path: root, type: 'dir', data: Buffer.alloc(0) });
  await walk(root);
  return entries;
}

export function pack(entries: TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const name = entry.type === 'dir' ? `${entry.path}/` : entry.path;
    const split = splitName(name);
    if (!split) {
      const record = paxRecord('path', name);
      blocks.push(header({ name: 'PaxHeader', size: record.length, type: 'x' }), padded(record));
    }
    const [prefix, base] = split ?? ['', name.slice(-100)];
    blocks.push(header({ name: base, prefix, size: entry.data.length, type: entry.type === 'dir' ? '5' : '0' }));
    if (entry.type === 'file') blocks.push(padded(entry.data));
  }
  blocks.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(blocks);
}

/** Parses and validates an archive; every entry must lie under one of `roots`. */
export function unpack(archive: Buffer, roots: string | readonly string[], limits: Limits): TarEntry[] {
  const entries: TarEntry[] = [];
  let offset = 0;
  let bytes = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= archive.length) {
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((b) => b === 0)) return entries; // end-of-archive marker
    if (!checksumOk(block)) throw new ArchiveError(`bad header checksum at byte ${offset}`);
    const size = parseOctal(block.subarray(124, 136));
    const type = String.fromCharCode(block[156]!);
    const dataStart = offset + BLOCK;
    if (dataStart + size > archive.length) throw new ArchiveError('truncated archive');
    const data = archive.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      longName = parsePax(data).path ?? longName;
      continue;
    }
    if (type === 'g') continue;
    if (type === 'L') {
      longName = cString(data);
      continue;
    }
    const prefix = cString(block.subarray(345, 500));
    const name = longName ?? (prefix ? `${prefix}/${cString(block.subarray(0, 100))}` : cString(block.subarray(0, 100)));
    longName = undefined;
    const kind = type === '0' || type === '\0' ? 'file' : type === '5' ? 'dir' : undefined;
    if (!kind) throw new ArchiveError(`${name}: only regular files and directories are allowed`);
    const clean = safePath(name, typeof roots === 'string' ? [roots] : roots);
    bytes += size;
    if (bytes > limits.maxBytes) throw new ArchiveTooLargeError(`more than ${limits.maxBytes} bytes`);
    if (entries.length >= limits.maxEntries) throw new ArchiveTooLargeError(`more than ${limits.maxEntries} entries`);
    entries.push({ path: clean, type: kind, data: kind === 'file' ? Buffer.from(data) : Buffer.alloc(0) });
  }
  throw new ArchiveError('archive has no end marker');
}

/** Writes validated entries below `dir` (which must be ours and fresh: no links inside). */
export async function writeEntries(dir: string, entries: TarEntry[]): Promise<void> {
  for (const entry of entries) {
    const target = path.join(dir, ...entry.path.split('/'));
    if (entry.type === 'dir') await mkdir(target, { recursive: true });
    else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, entry.data);
    }
  }
}

function safePath(name: string, roots: readonly string[]): string {
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (name.startsWith('/') || parts.some((p) => p === '..' || p.includes('\\') || p.includes('\0'))) {
    throw new ArchiveError(`${name}: unsafe path`);
  }
  if (!roots.includes(parts[0]!)) throw new ArchiveError(`${name}: entries must lie under ${roots.map((r) => `${r}/`).join(' or ')}`);
  return parts.join('/');
}

function splitName(name: string): [string, string] | undefined {
  if (Buffer.byteLength(name) <= 100) return ['', name];
  for (let i = name.lastIndexOf('/', name.length - 2); i > 0; i = name.lastIndexOf('/', i - 1)) {
    const base = name.slice(i + 1);
    if (Buffer.byteLength(base) > 100) return undefined;
    if (Buffer.byteLength(name.slice(0, i)) <= 155) return [name.slice(0, i), base];
  }
  return undefined;
}

function header({ name, prefix = '', size, type }: { name: string; prefix?: string; size: number; type: string }): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(type === '5' ? '0000755\0' : '0000644\0', 100, 'ascii');
  block.write('0000000\0', 108, 'ascii');
  block.write('0000000\0', 116, 'ascii');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write('00000000000\0', 136, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\x0000', 257, 'ascii');
  block.write(prefix, 345, 155, 'utf8');
  block.fill(' ', 148, 156);
  const sum = block.reduce((s, b) => s + b, 0);
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function checksumOk(block: Buffer): boolean {
  const stored = parseOctal(block.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  return sum === stored;
}

function parseOctal(field: Buffer): number {
  if (field[0]! & 0x80) throw new ArchiveError('base-256 sizes are not supported');
  const text = cString(field).trim();
  const value = text === '' ? 0 : Number.parseInt(text, 8);
  if (!Number.isSafeInteger(value) || value < 0) throw new ArchiveError('bad number in header');
  return value;
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  return Buffer.from(`${length}${body}`);
}

function parsePax(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < data.length) {
    const space = data.indexOf(0x20, i);
    const length = Number(data.subarray(i, space).toString());
    if (space < 0 || !Number.isInteger(length) || length <= 0) throw new ArchiveError('bad pax header');
    const record = data.subarray(space + 1, i + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    out[record.slice(0, eq)] = record.slice(eq + 1);
    i += length;
  }
  return out;
}

function cString(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? field.length : end).toString('utf8');
}

function padded(data: Buffer): Buffer {
  const rest = data.length % BLOCK;
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(BLOCK - rest)]);
}
