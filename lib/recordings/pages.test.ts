// A recording's name in lists: the first real title any tab showed, and the pages it visited.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PagesSeen } from './pages';

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
