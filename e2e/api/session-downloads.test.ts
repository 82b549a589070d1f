// A session's downloads (docs/api.md, Sessions; docs/connect.md, "Downloads"): the list and its
// order, one file as its exact bytes with its headers (a name outside ASCII included), HEAD, the
// dashboard's cookie, other workspaces, unknown ids, credentials and roles, the answers against
// the OpenAPI document, and the 60-day retention sweep. Downloads are stored as the proxy stores
// them at a session's end (lib/downloads/store.ts, saveDownload): a session row, the file under
// the stack's blob store and its SessionDownload row.
import { randomBytes } from 'node:crypto';
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { blobs } from '../../lib/blobs';
import { db } from '../../lib/db';
import { downloadFolder, saveDownload, saveProviderDownloads, sweepExpiredDownloads } from '../../lib/downloads/store';
import type { OpenApiDocument } from '../../lib/openapi/document';
import { documentValidator, type DocumentValidator } from '../../lib/openapi/testing';
import { call, expectError, expectOk, newUser, signIn, WEB, type TestUser } from '../support/api';
import { seedMember, seedSession } from '../support/seed';

const DAY_MS = 86_400_000;
const NAME = 'résumé (1).pdf';
const DISPOSITION = `attachment; filename="resume (1).pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`;

const as = (user: TestUser, workspaceId?: string) => ({ auth: { token: user.token }, ...(workspaceId ? { headers: { 'x-workspace-id': workspaceId } } : {}) });

/** A GET (or HEAD) answered as bytes: status, headers and the body as a Buffer (call() parses text). */
async function getBytes(url: string, headers: Record<string, string>, method = 'GET') {
  const response = await fetch(`${WEB}${url}`, { method, headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}
const bearer = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

/** An ended session of the user's workspace with files saved at its end, `createdAt` a second apart in the order given. */
async function sessionWithDownloads(user: TestUser, files: { name: string; data: Buffer }[], startedAt = new Date(Date.now() - 10 * 60_000)) {
  const session = await seedSession(user.workspaceId, user.routerId, { state: 'closed', startedAt, durationMs: 60_000 });
  const rows = [];
  for (const [i, file] of files.entries()) {
    const row = await saveDownload({ workspaceId: user.workspaceId, sessionId: session.id, ...file });
    // Seconds apart, so the order is the saving order and not the names' (which run the other way below).
    rows.push(await db.sessionDownload.update({ where: { id: row.id }, data: { createdAt: new Date(startedAt.getTime() + 60_000 + i * 1_000) } }));
  }
  return { session, rows };
}

let owner: TestUser;
let other: TestUser;
let validator: DocumentValidator;
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(256 * 1024)]);
const CSV = Buffer.from('id,name\n1,Ada\n2,Grace\n');
let fixture: Awaited<ReturnType<typeof sessionWithDownloads>>;

before(async () => {
  [owner, other] = await Promise.all([newUser('dl-owner'), newUser('dl-other')]);
  // Names against the saving order: zeta first, then the résumé, then an empty file.
  fixture = await sessionWithDownloads(owner, [
    { name: 'zeta.csv', data: CSV },
    { name: NAME, data: PDF },
    { name: 'empty.txt', data: Buffer.alloc(0) },
  ]);
  validator = documentValidator((await (await fetch(`${WEB}/v1/openapi.json`)).json()) as OpenApiDocument);
});

test('GET /v1/sessions/:id/downloads: every file in the order saved, sizes as numbers, each with the path of its file', async () => {
  const res = await call('GET', `/v1/sessions/${fixture.session.id}/downloads`, as(owner));
  const data = expectOk<{ items: Record<string, unknown>[]; total: number }>(res);
  assert.equal(data.total, 3);
  assert.deepEqual(Object.keys(data).sort(), ['items', 'total'], 'a whole list, no pages');
  assert.deepEqual(
    data.items.map((i) => i.name),
    ['zeta.csv', NAME, 'empty.txt'],
  );
  assert.deepEqual(
    data.items.map((i) => i.sizeBytes),
    [CSV.length, PDF.length, 0],
  );
  for (const [i, item] of data.items.entries()) {
    const row = fixture.rows[i]!;
    assert.deepEqual(Object.keys(item).sort(), ['createdAt', 'id', 'keptBy', 'name', 'sizeBytes', 'sourceUrl', 'url']);
    assert.deepEqual([item.keptBy, item.sourceUrl], ['service', null]);
    assert.equal(item.id, row.id);
    assert.equal(item.createdAt, row.createdAt.toISOString());
    assert.equal(item.url, `/v1/sessions/${fixture.session.id}/downloads/${row.id}`);
  }
  assert.equal(validator.response('get', '/v1/sessions/{id}/downloads', 200, res.body), null, 'the answer is what the OpenAPI document says');
  assert.ok(res.headers.get('x-ratelimit-limit'), 'counted against the daily cap like the other session calls');

  // A session without files (still running, or on another provider) lists none.
  const running = await seedSession(owner.workspaceId, owner.routerId);
  assert.deepEqual(expectOk(await call('GET', `/v1/sessions/${running.id}/downloads`, as(owner))), { items: [], total: 0 });
});

test("downloads the provider's browser kept (from a trace): listed with their source, no file here; fetching one says where it is", async () => {
  const session = await seedSession(owner.workspaceId, owner.routerId, { state: 'closed', durationMs: 60_000 });
  const at = Date.now() - 30_000;
  const stored = await saveProviderDownloads({
    workspaceId: owner.workspaceId,
    sessionId: session.id,
    downloads: [
      { name: 'report.pdf', url: 'https://files.example/report.pdf?token=[redacted]', bytes: 48_211, at },
      { name: '', url: '', bytes: 3, at: at + 1_000 },
    ],
  });
  assert.equal(stored, 2);
  const res = await call('GET', `/v1/sessions/${session.id}/downloads`, as(owner));
  const { items } = expectOk<{ items: Record<string, unknown>[] }>(res);
  assert.deepEqual(
    items.map(({ id: _id, ...rest }) => rest),
    [
      {
        name: 'report.pdf',
        sizeBytes: 48_211,
        createdAt: new Date(at).toISOString(),
        url: null,
        keptBy: 'provider',
        sourceUrl: 'https://files.example/report.pdf?token=[redacted]',
      },
      { name: 'download', sizeBytes: 3, createdAt: new Date(at + 1_000).toISOString(), url: null, keptBy: 'provider', sourceUrl: null },
    ],
  );
  assert.equal(validator.response('get', '/v1/sessions/{id}/downloads', 200, res.body), null);
  const file = await call('GET', `/v1/sessions/${session.id}/downloads/${items[0]!.id}`, as(owner));
  expectError(file, 404, 'not_found');
  assert.match(JSON.stringify(file.body), /kept by the provider's browser/);
});

test('GET /v1/sessions/:id/downloads/:downloadId: the exact bytes, as an attachment under the saved name, not cached, not sniffed', async () => {
  const list = expectOk<{ items: { url: string; name: string }[] }>(await call('GET', `/v1/sessions/${fixture.session.id}/downloads`, as(owner)));
  const pdf = list.items.find((i) => i.name === NAME)!;
  const res = await getBytes(pdf.url, bearer(owner));
  assert.equal(res.status, 200);
  assert.ok(res.body.equals(PDF), 'the same bytes as saved');
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  assert.equal(res.headers.get('content-length'), String(PDF.length));
  assert.equal(res.headers.get('content-disposition'), DISPOSITION);
  assert.equal(res.headers.get('cache-control'), 'private, no-store');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.ok(res.headers.get('x-request-id'));
  assert.equal(res.headers.get('x-body-length'), null, 'the private length header is not sent');

  const csv = await getBytes(list.items[0]!.url, bearer(owner));
  assert.equal(csv.body.toString(), CSV.toString());
  assert.equal(csv.headers.get('content-disposition'), `attachment; filename="zeta.csv"; filename*=UTF-8''zeta.csv`);
  const empty = await getBytes(list.items[2]!.url, bearer(owner));
  assert.equal(empty.status, 200);
  assert.equal(empty.body.length, 0);
  assert.equal(empty.headers.get('content-length'), '0');

  // HEAD: the same headers, no body.
  const head = await getBytes(pdf.url, bearer(owner), 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal(head.headers.get('content-length'), String(PDF.length));
  assert.equal(head.headers.get('content-disposition'), DISPOSITION);

  // The dashboard's link: the session cookie authenticates it, in the active workspace.
  const { cookie } = await signIn(owner.email);
  const viaCookie = await getBytes(pdf.url, { cookie });
  assert.equal(viaCookie.status, 200);
  assert.ok(viaCookie.body.equals(PDF));
});

test("another workspace's session or download is not found, like a missing one, in the envelope", async () => {
  const theirs = await sessionWithDownloads(other, [{ name: 'secret.txt', data: Buffer.from('theirs') }]);
  const mine = fixture.session.id;
  const cases: [string, string][] = [
    [`/v1/sessions/${theirs.session.id}/downloads`, 'their session, listed by me'],
    [`/v1/sessions/${theirs.session.id}/downloads/${theirs.rows[0]!.id}`, 'their file under their session'],
    [`/v1/sessions/${mine}/downloads/${theirs.rows[0]!.id}`, 'their file under my session'],
    [`/v1/sessions/${mine}/downloads/no-such-download`, 'an unknown download'],
    ['/v1/sessions/no-such-session/downloads', 'an unknown session'],
    ['/v1/sessions/no-such-session/downloads/no-such-download', 'an unknown session and download'],
  ];
  for (const [url, what] of cases) {
    const res = await call('GET', url, as(owner));
    expectError(res, 404, 'not_found');
    assert.equal(
      validator.response('get', url.split('/').length === 5 ? '/v1/sessions/{id}/downloads' : '/v1/sessions/{id}/downloads/{downloadId}', 404, res.body),
      null,
      what,
    );
  }
  // One of my own files under another of my sessions is not that session's.
  const second = await sessionWithDownloads(owner, [{ name: 'b.txt', data: Buffer.from('b') }]);
  expectError(await call('GET', `/v1/sessions/${mine}/downloads/${second.rows[0]!.id}`, as(owner)), 404, 'not_found');
  assert.equal((await call('GET', `/v1/sessions/${mine}/downloads/${fixture.rows[0]!.id}`, as(owner))).status, 200, 'while it is found under its own');
  // Their own calls find it: the 404s above were about the workspace, not the file.
  assert.equal((await getBytes(`/v1/sessions/${theirs.session.id}/downloads/${theirs.rows[0]!.id}`, bearer(other))).body.toString(), 'theirs');
  // Naming a workspace one is not a member of is refused as for every other call.
  expectError(await call('GET', `/v1/sessions/${theirs.session.id}/downloads`, as(owner, other.workspaceId)), 403, 'not_a_member');
});

test('a member (not an owner or admin) reads the list and the files; without a token or with a bad one, 401', async () => {
  const member = await newUser('dl-member');
  await seedMember(owner.workspaceId, member.userId, 'member');
  const list = expectOk<{ items: { url: string }[]; total: number }>(
    await call('GET', `/v1/sessions/${fixture.session.id}/downloads`, as(member, owner.workspaceId)),
  );
  assert.equal(list.total, 3);
  const file = await getBytes(list.items[0]!.url, { ...bearer(member), 'x-workspace-id': owner.workspaceId });
  assert.equal(file.status, 200);
  assert.equal(file.body.toString(), CSV.toString());
  // In the member's own workspace (no header) the session is not theirs.
  expectError(await call('GET', `/v1/sessions/${fixture.session.id}/downloads`, as(member)), 404, 'not_found');

  for (const url of [`/v1/sessions/${fixture.session.id}/downloads`, list.items[0]!.url]) {
    expectError(await call('GET', url), 401, 'unauthenticated');
    expectError(await call('GET', url, { auth: { token: 'acct_not-a-real-token' } }), 401, 'unauthenticated');
  }
});

test('retention: sweepExpiredDownloads deletes the files and rows of sessions that started over 60 days ago; younger ones and the sessions stay', async () => {
  const user = await newUser('dl-sweep');
  const old = await sessionWithDownloads(
    user,
    [
      { name: 'old-a.bin', data: randomBytes(64) },
      { name: 'old-b.bin', data: randomBytes(64) },
    ],
    new Date(Date.now() - 61 * DAY_MS),
  );
  const young = await sessionWithDownloads(user, [{ name: 'young.bin', data: randomBytes(64) }], new Date(Date.now() - 59 * DAY_MS));
  for (const row of [...old.rows, ...young.rows]) assert.notEqual(await blobs().size(row.blobKey!), null);

  const deleted = await sweepExpiredDownloads();
  assert.ok(deleted >= 2, `at least the two old files were deleted (${deleted})`);
  assert.equal(await db.sessionDownload.count({ where: { sessionLogId: old.session.id } }), 0, 'the old rows are gone');
  for (const row of old.rows) assert.equal(await blobs().size(row.blobKey!), null, `${row.blobKey} is gone`);
  assert.equal(old.rows[0]!.blobKey!.startsWith(`${downloadFolder(old.session.id)}/`), true, "files live in the session's folder, which the sweep removes");
  assert.ok(await db.sessionLog.findUnique({ where: { id: old.session.id } }), 'the session itself is history and stays');
  assert.deepEqual(expectOk(await call('GET', `/v1/sessions/${old.session.id}/downloads`, as(user))), { items: [], total: 0 });

  assert.equal(await db.sessionDownload.count({ where: { sessionLogId: young.session.id } }), 1, 'the 59-day-old file stays');
  assert.notEqual(await blobs().size(young.rows[0]!.blobKey!), null);
  const kept = await getBytes(`/v1/sessions/${young.session.id}/downloads/${young.rows[0]!.id}`, bearer(user));
  assert.equal(kept.status, 200);
});
