// A recording's name in lists: the first real title any tab showed, and the pages it visited.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_TAB_PAGES, PagesSeen, TabPages } from './pages';
import { readManifestLines } from './build-manifest';

test('the first title a page showed, and distinct pages across tabs (the #fragment aside; blank and browser pages not counted)', () => {
  const pages = new PagesSeen();
  assert.deepEqual([pages.title, pages.count], [null, 0]);
  pages.see('about:blank', 'about:blank');
  pages.see('chrome://new-tab-page/', 'New Tab');
  // A tab's title before the page loaded is its address: not a title yet.
  pages.see('https://shop.example/', 'https://shop.example/');
  pages.see('http://127.0.0.1:8080/a?title=Big%20sale', '127.0.0.1:8080/a?title=Big sale');
  pages.see(undefined, '');
  assert.deepEqual([pages.title, pages.count], [null, 2]);
  pages.see('https://shop.example/', 'Example Shop');
  pages.see('https://shop.example/#reviews', 'Example Shop');
  pages.see('https://shop.example/cart', 'Your cart');
  pages.see('https://pay.example/checkout?step=1', 'Checkout'); // a second tab
  assert.deepEqual([pages.title, pages.count], ['Example Shop', 4]);
});

test("a tab's pages in order, each with the title it got; the #fragment, blank and browser pages are not pages; bounded", () => {
  const tab = new TabPages();
  tab.see(0, 'about:blank', '');
  tab.see(100, 'https://shop.example/', 'https://shop.example/'); // committed, no title yet
  tab.see(180, 'https://shop.example/', 'Example Shop');
  tab.see(900, 'https://shop.example/#reviews', 'Example Shop');
  tab.see(1_500, 'https://shop.example/cart', 'shop.example/cart');
  tab.see(1_600, 'https://shop.example/cart', 'Your cart');
  tab.see(2_000, 'chrome://newtab/', 'New Tab');
  tab.see(2_500, 'https://shop.example/', 'Example Shop'); // back again: a visit of its own
  tab.see(2_600, undefined, undefined); // closed
  assert.deepEqual(tab.pages, [
    { t: 100, url: 'https://shop.example/', title: 'Example Shop' },
    { t: 1_500, url: 'https://shop.example/cart', title: 'Your cart' },
    { t: 2_500, url: 'https://shop.example/', title: 'Example Shop' },
  ]);
  const many = new TabPages();
  for (let i = 0; i < MAX_TAB_PAGES + 50; i++) many.see(i, `https://a.example/${i}`, `Page ${i}`);
  assert.equal(many.pages.length, MAX_TAB_PAGES);
  assert.deepEqual(many.pages.at(-1), { t: MAX_TAB_PAGES - 1, url: `https://a.example/${MAX_TAB_PAGES - 1}`, title: `Page ${MAX_TAB_PAGES - 1}` });
});

test("the manifest's tabs carry their pages, each tab its own", () => {
  const { targets } = readManifestLines([
    { k: 't', t: 0, target: 'A', event: 'opened', url: 'https://one.example/', title: 'One' },
    { k: 't', t: 10, target: 'B', event: 'opened', url: 'about:blank', title: '' },
    { k: 't', t: 50, target: 'A', event: 'changed', url: 'https://one.example/two', title: 'Two' },
    { k: 't', t: 60, target: 'B', event: 'changed', url: 'https://other.example/', title: 'Other' },
    { k: 't', t: 70, target: 'B', event: 'closed' },
  ]);
  assert.deepEqual(
    targets.map((t) => [t.targetId, t.pages]),
    [
      [
        'A',
        [
          { t: 0, url: 'https://one.example/', title: 'One' },
          { t: 50, url: 'https://one.example/two', title: 'Two' },
        ],
      ],
      ['B', [{ t: 60, url: 'https://other.example/', title: 'Other' }]],
    ],
  );
});
