// A trace kept on S3 (a real s3rver): the event store's page writers, rolled over every 1,000
// events while earlier pages are still being stored, give whole pages and a summary that the
// readers (here the orphan count, which reads page after page) agree with.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startS3Server, type S3Server } from '../../../e2e/support/s3-server';
import { openBlobStore } from '../../../lib/blobs';
import { readBlobStoreConfig } from '../../../lib/blobs/config';
import { pageKey, parsePage, traceCompleteKey } from '../../../lib/traces/format';
import { countEvents } from '../../../lib/traces/settle-orphans';
import { EventStore } from './event-store';

let server: S3Server;
before(async () => {
  server = await startS3Server();
});
after(() => server.close());

test('2,345 events: three pages on S3, every event once and in order', { timeout: 30_000 }, async () => {
  const store = openBlobStore(readBlobStoreConfig(server.env));
  const events = new EventStore(store, 'trc_s3', 1_000_000);
  for (let i = 0; i < 2_345; i++) {
    assert.equal(events.add({ kind: 'console', t: i, tab: null, level: 'log', source: 'log', text: `line ${i}` }), 'stored');
    if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
  }
  const summary = await events.close({ traceId: 'trc_s3', sessionId: 'ses_s3', startedAt: 'a', endedAt: 'b', durationMs: 1, truncated: null });
  assert.equal(summary.pages, 3);
  assert.equal(summary.droppedEvents, 0);
  const pages = await Promise.all([0, 1, 2].map(async (page) => parsePage((await store.get(pageKey('trc_s3', page)))!.toString())));
  assert.deepEqual(
    pages.map((p) => p.length),
    [1_000, 1_000, 345],
  );
  assert.ok(pages.flat().every((event, i) => event.seq === i));
  assert.equal(JSON.parse((await store.get(traceCompleteKey('trc_s3')))!.toString()).eventCount, 2_345);
  assert.deepEqual(await countEvents(store, 'trc_s3'), { eventCount: 2_345, sizeBytes: summary.sizeBytes });
});
