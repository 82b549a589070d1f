// The commands layer every CDP client of the product sends through: what is written, how answers
// find their commands, and how a deadline, an error answer and the connection's end fail them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CdpCommands, parseCdp } from './commands';
import { CdpError } from './errors';

function client(firstId?: number) {
  const written: Record<string, unknown>[] = [];
  const commands = new CdpCommands((text) => written.push(JSON.parse(text)), firstId);
  return { commands, written };
}

test('each command goes out with the next id (and its CDP session); its answer resolves it, an error answer rejects it', async () => {
  const { commands, written } = client();
  const version = commands.send('Browser.getVersion');
  const evaluated = commands.send('Runtime.evaluate', { expression: 'x' }, 'S1');
  assert.deepEqual(written, [
    { id: 1, method: 'Browser.getVersion', params: {} },
    { id: 2, method: 'Runtime.evaluate', params: { expression: 'x' }, sessionId: 'S1' },
  ]);
  assert.equal(commands.waiting, true);
  assert.equal(commands.settle({ method: 'Page.loadEventFired', params: {} }), false, 'an event is not an answer');
  assert.equal(commands.settle({ id: 2, error: { message: 'x is not defined' } }), true);
  assert.equal(commands.settle({ id: 1, result: { product: 'Chrome/156' } }), true);
  assert.deepEqual(await version, { product: 'Chrome/156' });
  await assert.rejects(
    evaluated,
    (error: Error) =>
      error instanceof CdpError &&
      error.kind === 'answered' &&
      error.message === 'Runtime.evaluate: x is not defined' &&
      error.details.method === 'Runtime.evaluate' &&
      error.details.detail === 'x is not defined',
  );
  assert.equal(commands.waiting, false);
});

test('a command past its deadline fails as a timeout naming it; its late answer is dropped, not taken for an event', async () => {
  const { commands } = client();
  await assert.rejects(
    commands.send('Page.navigate', { url: 'about:blank' }, undefined, 20),
    (error: Error) => error instanceof CdpError && error.kind === 'timeout' && error.details.method === 'Page.navigate' && error.details.timeoutMs === 20,
  );
  assert.equal(commands.settle({ id: 1, result: {} }), true);
});

test('the end of the connection fails every waiting command and every later one; rejectWaiting only the waiting ones', async () => {
  const { commands, written } = client();
  const waiting = commands.send('Target.getTargets');
  const gone = new CdpError('closed', 'the browser went away');
  commands.fail(gone);
  commands.fail(new CdpError('closed', 'a second reason is ignored'));
  await assert.rejects(waiting, (error) => error === gone);
  await assert.rejects(commands.send('Browser.close'), (error) => error === gone);
  assert.equal(written.length, 1, 'nothing is written after the end');

  const lane = client(1_000_000_000);
  const pending = lane.commands.send('Page.stopScreencast');
  lane.commands.rejectWaiting(new CdpError('closed', 'session ended'));
  await assert.rejects(pending, /session ended/);
  void lane.commands.send('Page.startScreencast');
  assert.deepEqual(
    lane.written.map((m) => m.id),
    [1_000_000_000, 1_000_000_001],
  );
  assert.equal(lane.commands.settle({ id: 7, result: {} }), false, "a client's id below the range passes through");
});

test('parseCdp: a JSON object, or null', () => {
  assert.deepEqual(parseCdp('{"id":1,"result":{}}'), { id: 1, result: {} });
  assert.equal(parseCdp('not json'), null);
  assert.equal(parseCdp('42'), null);
  assert.equal(parseCdp('null'), null);
});

test('commands are typed from the protocol: its names, parameters and answers (checked by the typecheck)', async () => {
  const { commands } = client();
  const version = commands.send('Browser.getVersion');
  const navigated = commands.send('Page.navigate', { url: 'about:blank' });
  // @ts-expect-error a method the protocol does not have
  void commands.send('Page.navigateSomewhere', {}).catch(() => {});
  // @ts-expect-error a parameter of the wrong type
  void commands.send('Page.navigate', { url: 42 }).catch(() => {});
  commands.settle({ id: 1, result: { product: 'Chrome/156', protocolVersion: '1.3' } });
  commands.settle({ id: 2, result: { frameId: 'F1' } });
  const product: string = (await version).product;
  const frameId: string = (await navigated).frameId;
  assert.deepEqual([product, frameId], ['Chrome/156', 'F1']);
  commands.fail(CdpError.closedByUs('done'));
});
