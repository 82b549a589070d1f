// The /v1/connect parameters of an agent's browser: the caller's options as asked, the router's
// agent defaults for the rest (where their switch is on), read-only unless the profile is saved.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RouterRuntime } from '../config/router-store';
import type { OpenOptions } from '../agent/types';
import { agentConnectParams as paramsOf, resolveAgentOptions, selfUrl } from './agent-endpoint';

const agentConnectParams = (options: OpenOptions, router: Router) => paramsOf(resolveAgentOptions(options, router));

type Router = Pick<RouterRuntime, 'agent' | 'switches'>;
const on = { webhooksEnabled: true, profilesEnabled: true, replayEnabled: true, observabilityEnabled: true };
const plain: Router = { agent: { recordDefault: false, observabilityDefault: false, defaultProfile: null, saveProfileDefault: false }, switches: on };
const defaults: Router = { agent: { recordDefault: true, observabilityDefault: true, defaultProfile: 'shop', saveProfileDefault: false }, switches: on };

test('no options and no defaults: a plain session', () => {
  assert.deepEqual(agentConnectParams({}, plain), {});
});

test('unset options take the router agent defaults; a profile is read-only unless saved', () => {
  assert.deepEqual(agentConnectParams({}, defaults), { session_record: 'true', observability: 'true', profile: 'shop', readOnly: '1' });
  assert.deepEqual(agentConnectParams({ saveProfile: true }, defaults), { session_record: 'true', observability: 'true', profile: 'shop' });
  assert.deepEqual(agentConnectParams({}, { ...defaults, agent: { ...defaults.agent, saveProfileDefault: true } }), {
    session_record: 'true',
    observability: 'true',
    profile: 'shop',
  });
});

test('options the caller set win over the defaults, null profile included', () => {
  assert.deepEqual(agentConnectParams({ record: false, trace: false, profile: null }, defaults), {});
  assert.deepEqual(agentConnectParams({ record: true, profile: 'mail', saveProfile: false }, plain), {
    session_record: 'true',
    profile: 'mail',
    readOnly: '1',
  });
});

test('a default whose switch is off is not applied; an explicit ask still is (and the connect refuses it)', () => {
  const off: Router = { ...defaults, switches: { ...on, replayEnabled: false, observabilityEnabled: false, profilesEnabled: false } };
  assert.deepEqual(agentConnectParams({}, off), {});
  assert.deepEqual(agentConnectParams({ record: true, profile: 'shop' }, off), { session_record: 'true', profile: 'shop', readOnly: '1' });
});

test('the proxy reaches itself on loopback', () => {
  assert.equal(selfUrl('127.0.0.1', 9500), 'ws://127.0.0.1:9500');
  assert.equal(selfUrl('0.0.0.0', 9500), 'ws://127.0.0.1:9500');
  assert.equal(selfUrl('::1', 9500), 'ws://[::1]:9500');
});
