// Following tabs from a connection's attach and detach events: a page's sessions open and close its
// tab, other sessions belong to the tab they were attached from, a destroyed target closes its tab
// at once, and each tab keeps the state its follower gave it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PageSessions } from './page-sessions';

const page = (targetId: string, url = 'about:blank') => ({ targetId, type: 'page', url });

test('a tab opens with its first page session and closes with its last; its state goes with it', () => {
  const made: string[] = [];
  const pages = new PageSessions((target, sessionId) => {
    made.push(`${target.targetId}@${sessionId}`);
    return { url: target.url, frames: 0 };
  });
  const first = pages.attached('S1', page('T1', 'https://a.test/'));
  assert.deepEqual(first, { tab: 'T1', state: { url: 'https://a.test/', frames: 0 }, opened: true });
  first!.state.frames++;
  const second = pages.attached('S2', page('T1'));
  assert.equal(second?.opened, false, 'a second session of the tab joins it');
  assert.equal(second?.state, first!.state);
  assert.deepEqual(made, ['T1@S1'], 'one state per tab');
  assert.deepEqual(pages.pageSessions().sort(), ['S1', 'S2']);
  assert.equal(pages.ofPageSession('S2')?.state.frames, 1);

  assert.equal(pages.detached('S1'), null, 'still open: S2 holds it');
  assert.deepEqual(pages.detached('S2'), { tab: 'T1', state: { url: 'https://a.test/', frames: 1 } });
  assert.equal(pages.get('T1'), undefined);
  assert.deepEqual(pages.states(), []);
  assert.equal(pages.detached('S2'), null, 'a session detaches once');
});

test("an iframe's or worker's session belongs to the tab it was attached from; it opens and closes nothing", () => {
  const pages = new PageSessions(() => ({}));
  pages.attached('S1', page('T1'));
  assert.equal(pages.attached('S1-frame', { targetId: 'F1', type: 'iframe' }, 'S1'), null);
  assert.equal(pages.attached('S1-worker', { targetId: 'W1', type: 'worker' }, 'S1-frame'), null);
  assert.equal(pages.tabOf('S1-frame'), 'T1');
  assert.equal(pages.tabOf('S1-worker'), 'T1', 'through its parent, whatever the depth');
  assert.equal(pages.attached('orphan', { targetId: 'W2', type: 'service_worker' }), null);
  assert.equal(pages.tabOf('orphan'), null, 'attached from the browser session: no tab');
  assert.equal(pages.ofPageSession('S1-frame'), null, 'not a page session');
  assert.equal(pages.detached('S1-frame'), null);
  assert.ok(pages.get('T1'), 'the tab is still open');
  assert.deepEqual(pages.pageSessions(), ['S1']);
  assert.equal(pages.tabOf(undefined), null);
});

test('a destroyed target closes its tab at once; its sessions still name the tab until they detach', () => {
  const pages = new PageSessions(() => ({ id: 1 }));
  pages.attached('S1', page('T1'));
  pages.attached('S2', page('T2'));
  assert.deepEqual(pages.destroyed('T1'), { tab: 'T1', state: { id: 1 } });
  assert.equal(pages.destroyed('T1'), null, 'once');
  assert.equal(pages.destroyed('T9'), null, 'an unknown target');
  assert.equal(pages.tabOf('S1'), 'T1', 'a late event of the session still names its tab');
  assert.equal(pages.ofPageSession('S1'), null);
  assert.equal(pages.detached('S1'), null, 'the detach after it closes nothing again');
  assert.deepEqual(pages.pageSessions(), ['S2']);
  assert.equal(pages.states().length, 1);
});
