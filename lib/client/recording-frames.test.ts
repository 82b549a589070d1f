import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  busiest,
  FrameStore,
  formatClock,
  frameIndexAt,
  framesOfTarget,
  LEAD_IN_MS,
  nextChunkAfter,
  openingPosition,
  pageAt,
  pageName,
  tabLabel,
  type PlayerFrame,
} from './recording-frames';

const frame = (index: number, t: number, chunk: number, offset: number, length: number, targetId = 'a'): PlayerFrame => ({
  index,
  t,
  targetId,
  chunk,
  offset,
  length,
  width: 10,
  height: 10,
});

test('the frame showing at a time is the last one at or before it', () => {
  const frames = [{ t: 0 }, { t: 100 }, { t: 100 }, { t: 250 }];
  assert.equal(frameIndexAt(frames, -1), -1);
  assert.equal(frameIndexAt(frames, 0), 0);
  assert.equal(frameIndexAt(frames, 99), 0);
  assert.equal(frameIndexAt(frames, 100), 2);
  assert.equal(frameIndexAt(frames, 10_000), 3);
  assert.equal(frameIndexAt([], 5), -1);
});

test("a tab's frames come out in time order; the next chunk is the first later one", () => {
  const frames = [frame(0, 50, 0, 4, 1, 'b'), frame(1, 10, 0, 9, 1, 'a'), frame(2, 30, 1, 4, 1, 'a'), frame(3, 20, 0, 14, 1, 'a')];
  assert.deepEqual(
    framesOfTarget(frames, 'a').map((f) => f.index),
    [1, 3, 2],
  );
  const a = framesOfTarget(frames, 'a');
  assert.equal(nextChunkAfter(a, 0, 0), 1);
  assert.equal(nextChunkAfter(a, 2, 1), null);
});

test('clock positions read as m:ss, and h:mm:ss past an hour', () => {
  assert.equal(formatClock(0), '0:00');
  assert.equal(formatClock(7_900), '0:07');
  assert.equal(formatClock(754_000), '12:34');
  assert.equal(formatClock(3_723_000), '1:02:03');
});

test('the store cuts frames out of a chunk, fetches each chunk once, refetches a grown chunk and revokes on dispose', async () => {
  // Chunk 0 as the capture writes it: [u32 length][jpeg] twice; the manifest's offsets point past the prefixes.
  const grown = Buffer.from([0, 0, 0, 2, 0xaa, 0xbb, 0, 0, 0, 3, 0xcc, 0xdd, 0xee]);
  let copies = [grown.subarray(0, 6), grown];
  const fetched: number[] = [];
  const store = new FrameStore(async (index) => {
    fetched.push(index);
    const bytes = copies.shift() ?? grown;
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
  });
  const first = frame(0, 0, 0, 4, 2);
  const second = frame(1, 40, 0, 10, 3);
  const url = await store.url(first);
  assert.deepEqual([...new Uint8Array(await (await fetch(url)).arrayBuffer())], [0xaa, 0xbb]);
  assert.equal(store.peek(first), url);
  // The first copy ended before the second frame: the chunk is fetched again.
  const secondUrl = await store.url(second);
  assert.deepEqual([...new Uint8Array(await (await fetch(secondUrl)).arrayBuffer())], [0xcc, 0xdd, 0xee]);
  assert.deepEqual(fetched, [0, 0]);
  copies = [];
  store.dispose();
  await assert.rejects(fetch(url));
});

test('a tab opens on its first frame: the busiest tab first, and a tab that came later from its first frame, not an empty screen', () => {
  assert.equal(
    busiest([
      { targetId: 'blank', frameCount: 2 },
      { targetId: 'page', frameCount: 40 },
    ]),
    'page',
  );
  assert.equal(busiest([]), null);
  const later = [{ t: 9_000 }, { t: 9_400 }];
  assert.equal(openingPosition(later, 0), 9_000, 'opened at 0:00, the tab shows from 0:09');
  assert.equal(openingPosition(later, 9_000 - LEAD_IN_MS), 9_000 - LEAD_IN_MS, 'within the lead-in the first frame already shows: the playhead stays');
  assert.equal(openingPosition(later, 12_000), 12_000, 'past its first frame: the moment is kept');
  assert.equal(openingPosition([], 500), 500);
});

test('a tab is named by its pages: the first one, and how many more; the page shown at a time', () => {
  const pages = [
    { t: 100, url: 'https://shop.example/', title: 'Example Shop' },
    { t: 1_500, url: 'https://shop.example/cart', title: '' },
    { t: 2_500, url: 'https://shop.example/pay', title: 'Pay' },
  ];
  assert.equal(tabLabel({ title: 'Pay', url: 'https://shop.example/pay', pages }, 1), 'Example Shop + 2 more pages');
  assert.equal(tabLabel({ title: 'Pay', url: 'https://shop.example/pay', pages: pages.slice(0, 2) }, 1), 'Example Shop + 1 more page');
  assert.equal(tabLabel({ title: '', url: '', pages: [pages[1]!] }, 1), 'https://shop.example/cart', 'a page without a title by its address');
  assert.equal(tabLabel({ title: '', url: 'about:blank', pages: [] }, 3), 'about:blank');
  assert.equal(tabLabel({ title: '', url: '', pages: [] }, 3), 'Tab 3');
  assert.deepEqual(
    [0, 100, 1_499, 1_500, 2_000, 9_999].map((t) => pageAt(pages, t)),
    [0, 0, 0, 1, 1, 2],
  );
  assert.equal(pageName(pages[1]!), 'https://shop.example/cart');
});
