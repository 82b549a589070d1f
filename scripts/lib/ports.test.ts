import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { test } from 'node:test';
import { assertPortsFree, freePort, waitForListening } from './ports';

test('free, distinct ports pass', async () => {
  const [a, b] = await Promise.all([freePort(), freePort()]);
  await assertPortsFree(
    [
      { setting: 'WEB_PORT', port: a },
      { setting: 'PORT', port: b },
    ],
    '127.0.0.1',
  );
});

test('two settings on one port are refused, naming both', async () => {
  const port = await freePort();
  await assert.rejects(
    assertPortsFree(
      [
        { setting: 'WEB_PORT', port: 3000 },
        { setting: 'PORT', port },
        { setting: 'POOL_PORT', port },
      ],
      '127.0.0.1',
    ),
    { message: `PORT and POOL_PORT are both ${port}; give each process its own port` },
  );
});

test('a port held by another process is refused with the setting to change', async () => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as net.AddressInfo;
  try {
    await assert.rejects(
      assertPortsFree([{ setting: 'PORT', port }], '127.0.0.1'),
      /port \d+ \(PORT\) is already in use on 127\.0\.0\.1.*set PORT to a free port/,
    );
  } finally {
    holder.close();
  }
});

test('a value that is not a port is refused', async () => {
  await assert.rejects(assertPortsFree([{ setting: 'WEB_PORT', port: Number('abc') }], '127.0.0.1'), /WEB_PORT=NaN is not a TCP port/);
});

test('waitForListening waits for a slow process as long as it lives, saying so, and fails at once when it exits first', async () => {
  const port = await freePort();
  // Still "compiling" until told to listen (a line on its stdin): the test tells it once it has
  // heard two notes, so the wait outlived two note periods with the process alive.
  const slow = spawn(process.execPath, ['-e', `process.stdin.once('data', () => require('node:net').createServer().listen(${port}, '127.0.0.1'))`], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const notes: number[] = [];
  try {
    await waitForListening(slow, port, {
      name: 'the slow one',
      slowMs: 300,
      onSlow: (ms) => {
        notes.push(ms);
        if (notes.length === 2) slow.stdin!.write('listen\n');
      },
    });
    assert.ok(notes.length >= 2 && notes[1]! >= 600, `notes while waiting: ${notes.join(', ')}`);
  } finally {
    slow.kill();
  }
  const failing = spawn(process.execPath, ['-e', 'process.exit(3)']);
  await assert.rejects(
    waitForListening(failing, await freePort(), { name: 'the failing one' }),
    /^Error: the failing one exited \(3\) before it listened on 127\.0\.0\.1:\d+$/,
  );
});
