import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asciiFilename, attachmentDisposition, encodeRfc8187 } from './content-disposition';

test('a plain name goes in both forms as it is', () => {
  assert.equal(attachmentDisposition('report-2026.csv'), `attachment; filename="report-2026.csv"; filename*=UTF-8''report-2026.csv`);
});

test('a name with accents, spaces and brackets: an ASCII stand-in and the UTF-8 name percent-encoded', () => {
  assert.equal(attachmentDisposition('résumé (1).pdf'), `attachment; filename="resume (1).pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`);
  // What a client does with filename*: the exact name back.
  assert.equal(decodeURIComponent(encodeRfc8187('résumé (1).pdf')), 'résumé (1).pdf');
});

test('the stand-in is printable ASCII without quotes, backslashes, slashes or percent signs, and never empty', () => {
  assert.equal(asciiFilename('a"b\\c/d%e.txt'), 'a_b_c_d_e.txt');
  assert.equal(asciiFilename('line\r\nbreak.txt'), 'line__break.txt');
  assert.equal(asciiFilename('日本語.txt'), '___.txt');
  assert.equal(asciiFilename('📄'), '_');
  assert.equal(asciiFilename(''), 'download');
  for (const name of ['日本語.txt', 'a"b.txt', 'x\u0000y', '😀 émoji.zip']) {
    const header = attachmentDisposition(name);
    assert.match(header, /^[\x20-\x7e]+$/, `${JSON.stringify(name)}: a valid header value`);
    assert.doesNotThrow(() => new Headers({ 'content-disposition': header }));
    const star = /filename\*=UTF-8''(.*)$/.exec(header)![1]!;
    assert.equal(decodeURIComponent(star), name);
  }
});

test("RFC 8187 leaves attr-chars alone and encodes everything else, ' ( ) * included", () => {
  assert.equal(encodeRfc8187("a'b(c)*d e!#$&+-.^_`|~"), 'a%27b%28c%29%2Ad%20e!#$&+-.^_`|~');
  assert.equal(encodeRfc8187('€'), '%E2%82%AC');
});
