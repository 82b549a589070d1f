// Uploads on the pool, as clients make them, over real sockets to a sandboxed Chromium: a file
// named by its path on the client's machine (puppeteer's uploadFile, raw DOM.setFileInputFiles) is
// refused with a CDP error that says what works instead, never set as a silent 0-byte file; the
// contents (Playwright's setInputFiles) arrive byte for byte. The refusal is the relay's (command-
// screen.ts): it answers in the client's session, and never lands inside a message the browser is
// still sending.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { auth, openSocket, startTestPool, type OpenSocket, type TestPool } from './testing';
import { UPLOAD_BY_PATH_REFUSAL } from './uploads';

const FORM =
  '<input type="file" id="f"><script>window.read = () => new Promise((resolve) => { const file = document.getElementById("f").files[0]; if (!file) return resolve(null); const reader = new FileReader(); reader.onload = () => resolve({ name: file.name, size: file.size, text: reader.result }); reader.readAsText(file); });</script>';
const CONTENT = `upload ${'0123456789'.repeat(100)} end`;

let pool: TestPool;
let dir: string;
let file: string;
before(async () => {
  pool = await startTestPool({ capacity: 2 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'br-upload-'));
  file = path.join(dir, 'hello.txt');
  writeFileSync(file, CONTENT);
});
after(async () => {
  await pool?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("Playwright's setInputFiles sends the file's contents: the page reads it byte for byte", async () => {
  const browser: Browser = await chromium.connectOverCDP(pool.ws, { headers: auth });
  try {
    const page = await browser.contexts()[0]!.newPage();
    await page.setContent(FORM);
    await page.setInputFiles('#f', file);
    assert.deepEqual(await page.evaluate('window.read()'), { name: 'hello.txt', size: CONTENT.length, text: CONTENT });
  } finally {
    await browser.close();
  }
});

test("puppeteer's uploadFile(<path>) fails with the error that names the fix; the input stays empty", async () => {
  const browser = await puppeteer.connect({ browserWSEndpoint: pool.ws, headers: auth, defaultViewport: null });
  try {
    const page = await browser.newPage();
    await page.setContent(FORM);
    const input = (await page.$('#f'))!;
    await assert.rejects((input as unknown as { uploadFile(...paths: string[]): Promise<void> }).uploadFile(file), (error: Error) => {
      assert.ok(error.message.includes(UPLOAD_BY_PATH_REFUSAL), error.message);
      return true;
    });
    assert.equal(await page.evaluate('window.read()'), null);
  } finally {
    await browser.disconnect();
  }
});

test("raw CDP: the refusal answers in the command's session; an empty file list and other commands pass; a large message in flight stays whole", async () => {
  const socket = await openSocket(pool.ws, auth);
  try {
    const cdp = rawCdp(socket);
    const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
    const { root } = await cdp.send('DOM.getDocument', {}, sessionId);
    await cdp.send('Runtime.evaluate', { expression: `document.body.innerHTML = '<input type="file" id="f">'` }, sessionId);
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#f' }, sessionId);
    // A 4 MB answer on its way to the client when the refused command is answered.
    const big = cdp.raw('Runtime.evaluate', { expression: "'x'.repeat(4 * 1024 * 1024)", returnByValue: true }, sessionId);
    const refused = cdp.raw('DOM.setFileInputFiles', { nodeId, files: [file] }, sessionId);
    const [bigAnswer, refusedAnswer] = await Promise.all([big, refused]);
    assert.equal(bigAnswer.result.result.value.length, 4 * 1024 * 1024);
    assert.deepEqual(refusedAnswer.error, { code: -32000, message: UPLOAD_BY_PATH_REFUSAL });
    assert.equal(refusedAnswer.sessionId, sessionId);
    assert.deepEqual(await cdp.send('DOM.setFileInputFiles', { nodeId, files: [] }, sessionId), {});
    assert.equal((await cdp.send('Runtime.evaluate', { expression: '1 + 1' }, sessionId)).result.value, 2);
  } finally {
    socket.ws.close();
  }
});

/** CDP over the pool socket: `send` resolves with the result (rejects on an error); `raw` with the whole answer. */
function rawCdp(socket: OpenSocket) {
  let nextId = 1;
  const waiting = new Map<number, (answer: any) => void>();
  socket.ws.on('message', (data) => {
    const message = JSON.parse(data.toString());
    if (typeof message.id === 'number') waiting.get(message.id)?.(message);
  });
  const raw = (method: string, params: Record<string, unknown>, sessionId?: string): Promise<any> => {
    const id = nextId++;
    socket.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  const send = async (method: string, params: Record<string, unknown>, sessionId?: string): Promise<any> => {
    const answer = await raw(method, params, sessionId);
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  };
  return { raw, send };
}
