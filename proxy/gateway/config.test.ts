// gateway.yml read into a configuration: the example file, the defaults, and a message with the
// line and key path for each thing that is wrong. `${VAR}` has config-env.test.ts, the lookup
// order config-path.test.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { STRATEGY_NAMES } from '../engine/types';
import { ConfigError, loadConfig, parseConfig } from './config';
import { problems } from './testing';

const EXAMPLE = path.resolve(import.meta.dirname, '../../docs/gateway.example.yml');
const EXAMPLE_ENV = { WEBHOOK_SECRET: 's3cret', CLOUD_BROWSER_TOKEN: 'tok' };

const provider = 'providers:\n  local:\n    url: ws://127.0.0.1:9222\n';

describe('the example file', () => {
  test('loads with every key and substitutes the environment', async () => {
    const config = await loadConfig(EXAMPLE, EXAMPLE_ENV);
    assert.deepEqual(config, {
      gateway: {
        port: 9500,
        defaultStrategy: 'priority-chain',
        name: 'browser-gateway',
        cooldown: { defaultMs: 30000, failureThreshold: 0.5, minRequestVolume: 3 },
        connectionTimeout: 10000,
        shutdownDrainMs: 30000,
      },
      queue: { maxSize: 50, timeoutMs: 30000 },
      dashboard: { enabled: true },
      logging: { level: 'info' },
      webhooks: [
        { url: 'https://hooks.example.com/gateway/s3cret', events: ['provider.cooldown', 'queue.timeout'] },
        { url: 'https://ops.example.com/all-events', events: null },
      ],
      providers: [
        { id: 'local', url: 'http://127.0.0.1:9222', headers: {}, limits: { maxConcurrent: 4 }, priority: 1, weight: 1 },
        {
          id: 'cloud',
          url: 'wss://browser.example.com/?token=tok',
          headers: { 'X-Team': 'research' },
          limits: { maxConcurrent: 10 },
          priority: 2,
          weight: 3,
        },
      ],
    });
  });

  test('names its unset variables with their lines', async () => {
    await assert.rejects(loadConfig(EXAMPLE, {}), (error: ConfigError) => {
      const lines = readFileSync(EXAMPLE, 'utf8').split('\n');
      const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;
      assert.deepEqual(error.message.split('\n'), [
        `${EXAMPLE}:${lineOf('${WEBHOOK_SECRET}')}: webhooks[0].url uses \${WEBHOOK_SECRET}, but the environment variable WEBHOOK_SECRET is not set`,
        `${EXAMPLE}:${lineOf('${CLOUD_BROWSER_TOKEN}')}: providers.cloud.url uses \${CLOUD_BROWSER_TOKEN}, but the environment variable CLOUD_BROWSER_TOKEN is not set`,
      ]);
      return true;
    });
  });

  test('a missing file is a ConfigError naming it', async () => {
    await assert.rejects(loadConfig('/nonexistent/gateway.yml', {}), {
      name: 'ConfigError',
      message: '/nonexistent/gateway.yml: cannot be read: no such file',
    });
  });
});

describe('defaults', () => {
  test('an empty file is every default and no provider', () => {
    for (const text of ['', '# nothing\n', 'gateway:\nqueue:\nproviders:\n']) {
      const config = parseConfig(text, { env: {} });
      assert.deepEqual(config, {
        gateway: {
          port: 9500,
          defaultStrategy: 'round-robin',
          name: 'browser-gateway',
          cooldown: { defaultMs: 30000, failureThreshold: 0.5, minRequestVolume: 3 },
          connectionTimeout: 10000,
          shutdownDrainMs: 30000,
        },
        queue: { maxSize: 50, timeoutMs: 30000 },
        dashboard: { enabled: true },
        logging: { level: 'info' },
        webhooks: [],
        providers: [],
      });
    }
  });

  test('a provider with only a url', () => {
    assert.deepEqual(parseConfig(provider, { env: {} }).providers, [
      { id: 'local', url: 'ws://127.0.0.1:9222', headers: {}, limits: { maxConcurrent: null }, priority: 100, weight: 1 },
    ]);
  });

  test('every engine strategy is accepted, and queue.maxSize 0 disables the queue', () => {
    for (const name of STRATEGY_NAMES) {
      assert.equal(parseConfig(`gateway:\n  defaultStrategy: ${name}\n`, { env: {} }).gateway.defaultStrategy, name);
    }
    assert.equal(parseConfig('queue:\n  maxSize: 0\n', { env: {} }).queue.maxSize, 0);
  });
});

describe('validation names the key path and the line', () => {
  const cases: [string, string, string][] = [
    ['gateway.port', 'gateway:\n  port: 70000\n', 'gateway.yml:2: gateway.port must be an integer from 1 to 65535 (got 70000)'],
    ['gateway.port (string)', 'gateway:\n  port: "9500"\n', 'gateway.yml:2: gateway.port must be an integer from 1 to 65535 (got "9500")'],
    [
      'gateway.defaultStrategy',
      'gateway:\n  defaultStrategy: fastest\n',
      `gateway.yml:2: gateway.defaultStrategy must be one of ${STRATEGY_NAMES.join(', ')} (got "fastest")`,
    ],
    ['gateway.name', 'gateway:\n  name: "  "\n', 'gateway.yml:2: gateway.name must not be empty'],
    ['gateway.name (number)', 'gateway:\n  name: 12\n', 'gateway.yml:2: gateway.name must be a string (got 12)'],
    ['gateway.cooldown', 'gateway:\n  cooldown: 5\n', 'gateway.yml:2: gateway.cooldown must be a mapping of keys to values (got 5)'],
    [
      'gateway.cooldown.defaultMs',
      'gateway:\n  cooldown:\n    defaultMs: -1\n',
      'gateway.yml:3: gateway.cooldown.defaultMs must be an integer of 0 or more (got -1)',
    ],
    [
      'gateway.cooldown.failureThreshold',
      'gateway:\n  cooldown:\n    failureThreshold: 1.5\n',
      'gateway.yml:3: gateway.cooldown.failureThreshold must be a number from 0 to 1 (got 1.5)',
    ],
    [
      'gateway.cooldown.minRequestVolume',
      'gateway:\n  cooldown:\n    minRequestVolume: 2.5\n',
      'gateway.yml:3: gateway.cooldown.minRequestVolume must be an integer of 0 or more (got 2.5)',
    ],
    ['gateway.connectionTimeout', 'gateway:\n  connectionTimeout: 0\n', 'gateway.yml:2: gateway.connectionTimeout must be a positive integer (got 0)'],
    ['gateway.shutdownDrainMs', 'gateway:\n  shutdownDrainMs: soon\n', 'gateway.yml:2: gateway.shutdownDrainMs must be an integer of 0 or more (got "soon")'],
    ['queue.maxSize', '\nqueue:\n  maxSize: -1\n', 'gateway.yml:3: queue.maxSize must be an integer of 0 or more (got -1)'],
    ['queue.timeoutMs', 'queue:\n  timeoutMs: [1]\n', 'gateway.yml:2: queue.timeoutMs must be an integer of 0 or more (got a list)'],
    ['dashboard.enabled', 'dashboard:\n  enabled: "yes"\n', 'gateway.yml:2: dashboard.enabled must be true or false (got "yes")'],
    ['logging.level', 'logging:\n  level: verbose\n', 'gateway.yml:2: logging.level must be one of debug, info, warn, error (got "verbose")'],
    ['webhooks', 'webhooks:\n  url: https://x\n', 'gateway.yml:2: webhooks must be a list (got a mapping)'],
    ['webhooks[0]', 'webhooks:\n  - https://x\n', 'gateway.yml:2: webhooks[0] must be a mapping with a url (got "https://x")'],
    ['webhooks[0].url (missing)', 'webhooks:\n  - events: [test]\n', 'gateway.yml:2: webhooks[0].url is required'],
    ['webhooks[0].url (scheme)', 'webhooks:\n  - url: ws://x\n', 'gateway.yml:2: webhooks[0].url must be an http:// or https:// URL (got "ws://x")'],
    [
      'webhooks[0].events[1]',
      'webhooks:\n  - url: https://x\n    events:\n      - test\n      - provider.recovered\n',
      'gateway.yml:5: webhooks[0].events[1] must be one of provider.cooldown, queue.timeout, shutdown.start, test (got "provider.recovered")',
    ],
    [
      'webhooks[0].events (empty)',
      'webhooks:\n  - url: https://x\n    events: []\n',
      'gateway.yml:3: webhooks[0].events must list at least one event (leave it out to receive every event)',
    ],
    ['providers', 'providers: chrome\n', 'gateway.yml:1: providers must be a list of providers or a mapping of id to provider (got "chrome")'],
    [
      'providers.<id>',
      'providers:\n  Local_Chrome:\n    url: ws://x\n',
      'gateway.yml:3: providers.Local_Chrome is not a valid provider id: use 1 to 63 lowercase letters, digits, "-" or "_", starting with a letter or digit',
    ],
    ['providers.<id> (empty)', 'providers:\n  local:\n', 'gateway.yml:2: providers.local must be a mapping with a url (got nothing)'],
    ['providers.<id>.url (missing)', 'providers:\n  local:\n    priority: 1\n', 'gateway.yml:3: providers.local.url is required'],
    [
      'providers.<id>.url (scheme)',
      'providers:\n  local:\n    url: chrome://inspect\n',
      'gateway.yml:3: providers.local.url must be a ws://, wss://, http:// or https:// address (got "chrome://inspect")',
    ],
    ['providers.<id>.headers', `${provider}    headers: [a]\n`, 'gateway.yml:4: providers.local.headers must be a mapping of keys to values (got a list)'],
    ['providers.<id>.headers.<name>', `${provider}    headers:\n      X-Count: 5\n`, 'gateway.yml:5: providers.local.headers.X-Count must be a string (got 5)'],
    [
      'providers.<id>.headers (name)',
      `${provider}    headers:\n      "Bad Name": x\n`,
      'gateway.yml:5: providers.local.headers.Bad Name is not a valid HTTP header name',
    ],
    [
      'providers.<id>.limits.maxConcurrent',
      `\n\n\n\n\n\n\n${provider}    limits:\n      maxConcurrent: three\n`,
      'gateway.yml:12: providers.local.limits.maxConcurrent must be a positive integer (got "three")',
    ],
    ['providers.<id>.priority', `${provider}    priority: 1.5\n`, 'gateway.yml:4: providers.local.priority must be an integer (got 1.5)'],
    ['providers.<id>.weight', `${provider}    weight: 0\n`, 'gateway.yml:4: providers.local.weight must be a positive integer (got 0)'],
    ['top level', '- a\n- b\n', 'gateway.yml:1: (top level) must be a mapping of keys to values (got a list)'],
    ['YAML syntax', 'gateway:\n  port: 1\n  port: 2\n', 'gateway.yml:3: is not valid YAML: Map keys must be unique'],
  ];
  for (const [name, text, expected] of cases) {
    test(name, () => assert.deepEqual(problems(text), [expected]));
  }

  test('every problem is reported, in file order, not only the first', () => {
    const text = 'providers:\n  local:\n    url: ftp://x\n    weight: -2\ngateway:\n  port: 0\nlogging:\n  level: loud\n';
    assert.deepEqual(problems(text), [
      'gateway.yml:3: providers.local.url must be a ws://, wss://, http:// or https:// address (got "ftp://x")',
      'gateway.yml:4: providers.local.weight must be a positive integer (got -2)',
      'gateway.yml:6: gateway.port must be an integer from 1 to 65535 (got 0)',
      'gateway.yml:8: logging.level must be one of debug, info, warn, error (got "loud")',
    ]);
  });

  test('ConfigError carries the issues as data, and the file name given', () => {
    try {
      parseConfig('queue:\n  maxSize: x\n', { env: {}, file: '/etc/gw/gateway.yml' });
      assert.fail('expected a ConfigError');
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.issues, [{ file: '/etc/gw/gateway.yml', line: 2, path: 'queue.maxSize', message: 'must be an integer of 0 or more (got "x")' }]);
    }
  });
});

describe('unknown keys', () => {
  test('are errors with a suggestion for a close match', () => {
    assert.deepEqual(problems(`${provider}    limits:\n      maxConcurrency: 2\n`), [
      'gateway.yml:5: providers.local.limits.maxConcurrency is not a known key (did you mean "maxConcurrent"?)',
    ]);
    assert.deepEqual(problems('gateway:\n  cooldown:\n    failure_threshold: 0.2\n'), [
      'gateway.yml:3: gateway.cooldown.failure_threshold is not a known key (did you mean "failureThreshold"?)',
    ]);
    assert.deepEqual(problems('webhook:\n  - url: https://x\n'), ['gateway.yml:1: webhook is not a known key (did you mean "webhooks"?)']);
    assert.deepEqual(problems('webhooks:\n  - url: https://x\n    event: [test]\n'), [
      'gateway.yml:3: webhooks[0].event is not a known key (did you mean "events"?)',
    ]);
  });

  test('list the known keys when nothing is close', () => {
    assert.deepEqual(problems('replay:\n  enabled: true\n'), [
      'gateway.yml:1: replay is not a known key (known keys here: gateway, queue, dashboard, logging, webhooks, providers)',
    ]);
  });
});

describe('providers as a list of entries with an id', () => {
  test('reads as the mapping form does, in file order, block or flow style', () => {
    const mapping = parseConfig(
      'providers:\n  chrome:\n    url: ws://127.0.0.1:9222\n    priority: 1\n  cloud:\n    url: wss://cloud.example\n    headers: { X-Team: a }\n    limits: { maxConcurrent: 5 }\n    weight: 3\n',
      { env: {} },
    ).providers;
    const list = parseConfig(
      'providers:\n  - id: chrome\n    url: ws://127.0.0.1:9222\n    priority: 1\n  - url: wss://cloud.example\n    id: cloud\n    headers: { X-Team: a }\n    limits: { maxConcurrent: 5 }\n    weight: 3\n',
      { env: {} },
    ).providers;
    const flow = parseConfig(
      'providers: [{ id: chrome, url: ws://127.0.0.1:9222, priority: 1 }, { id: cloud, url: wss://cloud.example, headers: { X-Team: a }, limits: { maxConcurrent: 5 }, weight: 3 }]\n',
      { env: {} },
    ).providers;
    assert.equal(mapping.length, 2);
    assert.deepEqual(list, mapping);
    assert.deepEqual(flow, mapping);
    assert.deepEqual(parseConfig('providers: []\n', { env: {} }).providers, []);
  });

  const cases: [string, string, string][] = [
    ['an entry that is no mapping', 'providers:\n  - ws://x\n', 'gateway.yml:2: providers[0] must be a mapping with an id and a url (got "ws://x")'],
    ['no id', 'providers:\n  - url: ws://x\n', 'gateway.yml:2: providers[0].id is required'],
    [
      'an id that is not one',
      'providers:\n  - url: ws://x\n    id: Local_Chrome\n',
      'gateway.yml:3: providers[0].id is not a valid provider id: use 1 to 63 lowercase letters, digits, "-" or "_", starting with a letter or digit',
    ],
    ['an id that is a list', 'providers:\n  - id: [a]\n    url: ws://x\n', 'gateway.yml:2: providers[0].id must be a string (got a list)'],
    ['no url', 'providers:\n  - id: local\n    priority: 1\n', 'gateway.yml:2: providers[0].url is required'],
    [
      'a url of another scheme',
      'providers:\n  - id: local\n    url: chrome://inspect\n',
      'gateway.yml:3: providers[0].url must be a ws://, wss://, http:// or https:// address (got "chrome://inspect")',
    ],
    [
      'a limit',
      '\nproviders:\n  - id: local\n    url: ws://x\n    limits:\n      maxConcurrent: three\n',
      'gateway.yml:6: providers[0].limits.maxConcurrent must be a positive integer (got "three")',
    ],
    [
      'an unknown key',
      'providers:\n  - id: local\n    url: ws://x\n    maxConcurrent: 2\n',
      'gateway.yml:4: providers[0].maxConcurrent is not a known key (known keys here: id, url, headers, limits, priority, weight)',
    ],
    ['a typo', 'providers:\n  - id: local\n    url: ws://x\n    wieght: 2\n', 'gateway.yml:4: providers[0].wieght is not a known key (did you mean "weight"?)'],
  ];
  for (const [name, text, expected] of cases) {
    test(name, () => assert.deepEqual(problems(text), [expected]));
  }

  test('a repeated id is an error naming both lines', () => {
    const text = 'providers:\n  - id: chrome\n    url: ws://a\n  - id: cloud\n    url: ws://b\n  - url: ws://c\n    id: chrome\n';
    assert.deepEqual(problems(text), ['gateway.yml:7: providers[2].id "chrome" is already the id of providers[0], on line 2']);
  });
});
