// `gateway browse` without a browser: the launcher's parser against commander's, where a session's
// socket goes (the data directory, or a short folder when the path would be too long for a Unix
// socket), and the words a command prints instead of the tools'. The commands against a real
// daemon and Chromium: browse.test.ts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import { registerBrowse } from './browse';
import { parseBrowseArgs, type BrowseRequest } from './browse-args.mjs';
import { dataDirOf, sessionFiles, socketDirs } from './browse-wire.mjs';
import { forTheShell, maskEndpoint } from './browse-words';
import { gatewayDataDir } from './data-dir';

test("the launcher's parser accepts exactly the command lines commander accepts, as the same request", async () => {
  const viaCommander = async (argv: string[]): Promise<BrowseRequest | null> => {
    const program = new Command('gateway').exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    let captured: BrowseRequest | null = null;
    registerBrowse(program, async (request) => {
      captured = request;
      return 0;
    });
    try {
      await program.parseAsync(['browse', ...argv], { from: 'user' });
    } catch {
      return null;
    }
    return captured;
  };
  const lines = [
    ['open', 'https://example.com'],
    ['open', 'https://example.com', '--session', 'a', '--json'],
    ['--session', 'a', 'open', 'x'],
    ['--session=a', '--json', 'snapshot'],
    ['snapshot', '--endpoint', 'http://h:1', '--token', 't', '--idle-minutes', '0.5'],
    ['snapshot', '--idle-minutes=2'],
    ['click', '@e4'],
    ['click', 'e4', '--json'],
    ['fill', '@e1', 'Ada Lovelace'],
    ['fill', '@e1', ''],
    ['fill', '@e1', '--', '--not-an-option'],
    ['type', 'e2', 'x'],
    ['press', 'Enter'],
    ['press', '@e3', 'Control+a'],
    ['check', 'e1'],
    ['uncheck', 'e1'],
    ['select', '@e3', 'Pro'],
    ['hover', 'e9'],
    ['scroll', 'up'],
    ['scroll', 'down'],
    ['extract'],
    ['extract', '--format', 'links'],
    ['extract', '--format=text'],
    ['screenshot'],
    ['screenshot', '@e2', '--full', '--changed', '--out', 'a.jpg'],
    ['wait', 'Done'],
    ['wait', '--selector', '#x', '--timeout', '500'],
    ['wait', '--url', '/done'],
    ['tabs'],
    ['tabs', 'list'],
    ['tabs', 'new'],
    ['tabs', 'new', 'https://example.com'],
    ['tabs', 'select', 'ABC'],
    ['tabs', 'close', 'ABC'],
    ['eval', '1 + 1'],
    ['observe'],
    ['close'],
    ['sessions', '--json'],
    // Not accepted by either.
    [],
    ['frob'],
    ['open'],
    ['click'],
    ['click', 'e1', 'e2'],
    ['scroll', 'left'],
    ['extract', '--format', 'html'],
    ['snapshot', '--session', 'a b'],
    ['snapshot', '--session'],
    ['snapshot', '--idle-minutes', '0'],
    ['snapshot', '--idle-minutes', '-1'],
    ['snapshot', '--idle-minutes', 'x'],
    ['wait', '--timeout', '1.5', 'x'],
    ['wait'],
    ['tabs', 'select'],
    ['tabs', 'list', 'x'],
    ['tabs', 'open'],
    ['snapshot', '--bogus'],
    ['snapshot', '--json=yes'],
    ['--format', 'text', 'extract'],
    ['snapshot', '--help'],
    ['--help'],
    ['-h'],
  ];
  for (const argv of lines) {
    const fast = parseBrowseArgs(argv);
    assert.deepEqual(fast, await viaCommander(argv), argv.join(' '));
  }
  assert.equal(parseBrowseArgs(['--session', 'a', 'open', 'x'])!.flags.session, 'a');
  assert.equal(parseBrowseArgs(['eval', '-1']), null, 'a word starting with a dash is left to commander');
});

test('the client finds the data directory as proxy/gateway/config-path.ts does; a socket path too long for the data directory moves to a short folder', () => {
  for (const env of [{ GW_DATA_DIR: '/srv/gw' }, { GW_DATA_DIR: 'relative/dir' }, {}]) assert.equal(dataDirOf(env), gatewayDataDir(env));
  const long = `/tmp/${'d'.repeat(60)}`;
  assert.equal(sessionFiles(long, 'default').dir, path.join(long, 'browse'));
  // The short folder is under the temporary directory; under /tmp when that one's path is long
  // (macOS's per-user one is about 50 bytes).
  withTmpdir('/tmp', () => {
    const moved = sessionFiles(long, 'a'.repeat(64));
    assert.equal(moved.dir, socketDirs(long)[1]);
    assert.equal(path.dirname(moved.dir), '/tmp');
    assert.ok(Buffer.byteLength(moved.socket) <= 103);
  });
  const longTmp = `/tmp/${'t'.repeat(40)}`;
  withTmpdir(longTmp, () => {
    const moved = sessionFiles(long, 'a'.repeat(64));
    assert.deepEqual(
      socketDirs(long)
        .slice(1)
        .map((dir) => path.dirname(dir)),
      [longTmp, '/tmp'],
    );
    assert.equal(path.dirname(moved.dir), '/tmp');
    assert.ok(Buffer.byteLength(moved.socket) <= 103);
  });
  assert.throws(() => sessionFiles(long, '../x'), /not a session name/);
});

function withTmpdir(dir: string, body: () => void): void {
  const { TMPDIR } = process.env;
  process.env.TMPDIR = dir;
  try {
    body();
  } finally {
    if (TMPDIR === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = TMPDIR;
  }
}

test('messages name the commands instead of the tools; endpoints are shown with the token masked', () => {
  assert.equal(forTheShell('take a snapshot (browser_snapshot) and use its refs'), 'take a snapshot (gateway browse snapshot) and use its refs');
  assert.equal(forTheShell('switch with browser_tabs {"action":"select","tabId":"AB12"}'), 'switch with gateway browse tabs select AB12');
  assert.equal(forTheShell('closed after 5 minutes without a tool call'), 'closed after 5 minutes without a command');
  assert.equal(maskEndpoint('wss://gw.example.com/v1/connect?provider=a&token=rkey_abcdefghijkl'), 'wss://gw.example.com/v1/connect?provider=a&token=rkey…kl');
  assert.equal(maskEndpoint('ws://127.0.0.1:9222/devtools/browser/x'), 'ws://127.0.0.1:9222/devtools/browser/x');
});
