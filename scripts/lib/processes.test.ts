// isRunning: a process that has exited but was not reaped yet (a zombie) is not running, although
// signal 0 still finds it; a live one is, and a reaped one is not.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isRunning } from './processes';

const stateOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0];
const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
const tick = () => new Promise((resolve) => setImmediate(resolve));

test(
  'a zombie is not running; a live process is; a reaped one is not',
  { skip: !existsSync('/proc/self/stat') && 'needs /proc', timeout: 20_000 },
  async () => {
    // The shell starts a child, then becomes `sleep`, which never reaps it: once the child is
    // killed it stays a zombie.
    const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 61'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const child = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
      while (commandOf(parent.pid!) !== 'sleep') await tick();
      assert.equal(isRunning(child), true, 'the child runs');
      process.kill(child, 'SIGKILL');
      while (stateOf(child) !== 'Z') await tick();
      assert.doesNotThrow(() => process.kill(child, 0), 'signal 0 still finds the zombie');
      assert.equal(isRunning(child), false, 'a zombie is not running');
      assert.equal(isRunning(parent.pid!), true, 'the live parent runs');
    } finally {
      parent.kill('SIGKILL');
    }
    await new Promise((resolve) => parent.once('close', resolve));
    assert.equal(isRunning(parent.pid!), false, 'reaped by us: gone');
  },
);
