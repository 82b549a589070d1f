import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ArchiveError, ArchiveTooLargeError, collectEntries, pack, unpack, writeEntries } from './tar';

const limits = { maxBytes: 1024 * 1024, maxEntries: 100 };
const scratch = mkdtempSync(path.join(os.tmpdir(), 'pool-tar-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const longOrigin = `https_${'sub.'.repeat(40)}example.com_0.indexeddb.leveldb`; // > 155 bytes: needs pax
function sampleTree(dir: string): void {
  mkdirSync(path.join(dir, 'IndexedDB', 'http_127.0.0.1_8080.indexeddb.leveldb'), { recursive: true });
  mkdirSync(path.join(dir, 'IndexedDB', longOrigin), { recursive: true });
  writeFileSync(path.join(dir, 'IndexedDB', 'http_127.0.0.1_8080.indexeddb.leveldb', '000003.log'), Buffer.alloc(1500, 7));
  writeFileSync(path.join(dir, 'IndexedDB', 'http_127.0.0.1_8080.indexeddb.leveldb', 'CURRENT'), 'MANIFEST-000001\n');
  writeFileSync(path.join(dir, 'IndexedDB', longOrigin, 'CURRENT'), 'x');
}

test('a directory survives pack → unpack → write', async () => {
  const from = path.join(scratch, 'from');
  sampleTree(from);
  const archive = pack(await collectEntries(from, 'IndexedDB', limits));
  assert.equal(archive.length % 512, 0);
  const entries = unpack(archive, 'IndexedDB', limits);
  assert.deepEqual(
    entries
      .filter((e) => e.type === 'file')
      .map((e) => e.path)
      .sort(),
    [
      'IndexedDB/http_127.0.0.1_8080.indexeddb.leveldb/000003.log',
      'IndexedDB/http_127.0.0.1_8080.indexeddb.leveldb/CURRENT',
      `IndexedDB/${longOrigin}/CURRENT`,
    ],
  );
  const to = path.join(scratch, 'to');
  await writeEntries(to, entries);
  assert.deepEqual(readFileSync(path.join(to, 'IndexedDB', 'http_127.0.0.1_8080.indexeddb.leveldb', '000003.log')), Buffer.alloc(1500, 7));
  assert.equal(readFileSync(path.join(to, 'IndexedDB', longOrigin, 'CURRENT'), 'utf8'), 'x');
});

test('interoperates with the system tar both ways', async () => {
  const from = path.join(scratch, 'interop');
  sampleTree(from);
  const ours = pack(await collectEntries(from, 'IndexedDB', limits));
  const listed = execFileSync('tar', ['-tf', '-'], { input: ours }).toString();
  assert.match(listed, /IndexedDB\/http_127\.0\.0\.1_8080\.indexeddb\.leveldb\/000003\.log/);
  assert.ok(listed.includes(`${longOrigin}/CURRENT`));
  for (const format of ['gnu', 'pax']) {
    const theirs = execFileSync('tar', [`--format=${format}`, '-C', from, '-cf', '-', 'IndexedDB']);
    const files = unpack(theirs, 'IndexedDB', limits).filter((e) => e.type === 'file');
    assert.equal(files.length, 3, format);
    assert.ok(
      files.some((e) => e.path === `IndexedDB/${longOrigin}/CURRENT`),
      format,
    );
  }
});

test('refuses links, escapes, other roots and oversize archives', async () => {
  const evil = path.join(scratch, 'evil');
  mkdirSync(path.join(evil, 'IndexedDB'), { recursive: true });
  symlinkSync('/etc/passwd', path.join(evil, 'IndexedDB', 'link'));
  const withLink = execFileSync('tar', ['-C', evil, '-cf', '-', 'IndexedDB']);
  assert.throws(() => unpack(withLink, 'IndexedDB', limits), /only regular files/);
  assert.deepEqual(
    (await collectEntries(evil, 'IndexedDB', limits)).map((e) => e.path),
    ['IndexedDB'],
  ); // links are skipped

  const file = (p: string) => pack([{ path: p, type: 'file', data: Buffer.from('x') }]);
  assert.throws(() => unpack(file('IndexedDB/../../etc/x'), 'IndexedDB', limits), /unsafe path/);
  assert.throws(() => unpack(file('/IndexedDB/x'), 'IndexedDB', limits), /unsafe path/);
  assert.throws(() => unpack(file('Cookies'), 'IndexedDB', limits), /must lie under IndexedDB/);
  assert.throws(
    () => unpack(pack([{ path: 'IndexedDB/big', type: 'file', data: Buffer.alloc(2000) }]), 'IndexedDB', { maxBytes: 1000, maxEntries: 10 }),
    ArchiveTooLargeError,
  );
  const corrupt = file('IndexedDB/x');
  corrupt[0] = 0x41;
  assert.throws(() => unpack(corrupt, 'IndexedDB', limits), /checksum/);
  assert.throws(() => unpack(Buffer.from('not a tar'), 'IndexedDB', limits), ArchiveError);
  assert.deepEqual(unpack(pack([]), 'IndexedDB', limits), []);
});
