// lib/db/listen.ts on the test stack's PostgreSQL: the caller hears when LISTEN takes effect, the
// first time included, so a worker can catch up on whatever was signalled while it connected (a
// delivery enqueued then waited for the next poll: seen as a flaky webhook test).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { db } from '../../lib/db';
import { listen } from '../../lib/db/listen';

test('onListening runs once LISTEN is in place, the first time included; a NOTIFY sent from it arrives', { timeout: 20_000 }, async () => {
  const channel = `test_listen_${randomBytes(4).toString('hex')}`;
  const heard: string[] = [];
  let listening = 0;
  const arrived = new Promise<void>((resolve) => {
    const listener = listen(
      [channel],
      (_channel, payload) => {
        heard.push(payload);
        resolve();
      },
      () => {
        listening++;
        // A Prisma query runs only once it is awaited or given a then().
        db.$executeRaw`SELECT pg_notify(${channel}, 'after-listening')`.then(
          () => undefined,
          (error: Error) => heard.push(`NOTIFY failed: ${error.message}`),
        );
      },
    );
    after.push(() => listener.stop());
  });
  await arrived;
  assert.equal(listening, 1);
  assert.deepEqual(heard, ['after-listening']);
});

const after: (() => Promise<void>)[] = [];
test.after(async () => {
  await Promise.all(after.map((stop) => stop()));
});
