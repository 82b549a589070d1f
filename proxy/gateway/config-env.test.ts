// `${NAME}` in gateway.yml: replaced from the environment inside the scalar that holds it, before
// the value is typed (so numbers and booleans can come from the environment), and never able to add
// YAML structure of its own.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfig } from './config';
import { problems } from './testing';

const provider = 'providers:\n  local:\n    url: ws://127.0.0.1:9222\n';

describe('${VAR} substitution', () => {
  test('applies to every string value', () => {
    const text = [
      'gateway:',
      '  name: gw-${REGION}',
      'webhooks:',
      '  - url: https://hooks.example.com/${HOOK}?a=1',
      'providers:',
      '  cloud:',
      '    url: wss://${HOST}/?token=${TOKEN}',
      '    headers:',
      '      Authorization: Bearer ${TOKEN}',
      'logging:',
      '  level: ${LEVEL}',
    ].join('\n');
    const config = parseConfig(text, { env: { REGION: 'eu', HOOK: 'h00k', HOST: 'cloud.example', TOKEN: 't0k', LEVEL: 'debug' } });
    assert.equal(config.gateway.name, 'gw-eu');
    assert.equal(config.webhooks[0]!.url, 'https://hooks.example.com/h00k?a=1');
    assert.equal(config.providers[0]!.url, 'wss://cloud.example/?token=t0k');
    assert.deepEqual(config.providers[0]!.headers, { Authorization: 'Bearer t0k' });
    assert.equal(config.logging.level, 'debug');
  });

  test('a variable set to the empty string is set', () => {
    assert.equal(parseConfig('gateway:\n  name: a${EMPTY}b\n', { env: { EMPTY: '' } }).gateway.name, 'ab');
  });

  test('an unset variable is an error naming it and the line', () => {
    assert.deepEqual(problems(`\n${provider}    headers:\n      Authorization: Bearer \${API_TOKEN}\n`), [
      'gateway.yml:6: providers.local.headers.Authorization uses ${API_TOKEN}, but the environment variable API_TOKEN is not set',
    ]);
  });

  test('$${ is a literal ${', () => {
    const config = parseConfig('gateway:\n  name: cost-$${X}-and-$$-${Y}\n', { env: { X: 'no', Y: 'yes' } });
    assert.equal(config.gateway.name, 'cost-${X}-and-$$-yes');
  });

  test('a malformed reference is an error', () => {
    assert.deepEqual(problems('gateway:\n  name: a-${not-a-name}\n'), [
      'gateway.yml:2: gateway.name has "${not-a-name}", which is not a ${NAME} reference (write $${ for a literal ${)',
    ]);
    assert.deepEqual(problems('gateway:\n  name: a-${OPEN\n'), [
      'gateway.yml:2: gateway.name has "${OPEN", which is not a ${NAME} reference (write $${ for a literal ${)',
    ]);
  });

  test('messages quote the text before substitution, never the secret', () => {
    const [message] = problems('providers:\n  cloud:\n    url: ${SCHEME}://h/?token=${TOKEN}\n', { SCHEME: 'ftp', TOKEN: 'secret-value' });
    assert.equal(message, 'gateway.yml:3: providers.cloud.url must be a ws://, wss://, http:// or https:// address (got "${SCHEME}://h/?token=${TOKEN}")');
  });
});

describe('${VAR} before typing', () => {
  test('an unquoted reference that is a number or a boolean is one', () => {
    const text = [
      'gateway:',
      '  port: ${PORT}',
      '  cooldown:',
      '    failureThreshold: ${THRESHOLD}',
      'dashboard:',
      '  enabled: ${ON}',
      provider.trimEnd(),
      '    limits:',
      '      maxConcurrent: ${MAX}',
      '    priority: ${PRIORITY}',
    ].join('\n');
    const config = parseConfig(text, { env: { PORT: '9600', THRESHOLD: '0.25', ON: 'false', MAX: '3', PRIORITY: '-2' } });
    assert.equal(config.gateway.port, 9600);
    assert.equal(config.gateway.cooldown.failureThreshold, 0.25);
    assert.equal(config.dashboard.enabled, false);
    assert.equal(config.providers[0]!.limits.maxConcurrent, 3);
    assert.equal(config.providers[0]!.priority, -2);
  });

  test('works in flow style too', () => {
    const text = 'providers: { local: { url: "ws://${HOST}:9222", limits: { maxConcurrent: ${MAX} }, weight: 1${ZERO} } }\ndashboard: { enabled: ${ON} }\n';
    const config = parseConfig(text, { env: { HOST: 'chrome.internal', MAX: '4', ZERO: '0', ON: 'TRUE' } });
    assert.deepEqual(config.providers[0], {
      id: 'local',
      url: 'ws://chrome.internal:9222',
      headers: {},
      limits: { maxConcurrent: 4 },
      priority: 100,
      weight: 10,
    });
    assert.equal(config.dashboard.enabled, true);
  });

  test('a quoted reference stays a string, as a quoted number does', () => {
    assert.deepEqual(problems('dashboard:\n  enabled: "${ON}"\n', { ON: 'false' }), ['gateway.yml:2: dashboard.enabled must be true or false (got "${ON}")']);
  });

  test('where a string is wanted, the text is used even when it looks like a number', () => {
    const text = `gateway:\n  name: \${NAME}\n${provider}    headers:\n      Authorization: \${TOKEN}\n`;
    const config = parseConfig(text, { env: { NAME: '42', TOKEN: '0012345' } });
    assert.equal(config.gateway.name, '42');
    assert.deepEqual(config.providers[0]!.headers, { Authorization: '0012345' });
  });

  test('an unset variable in a number is named with its line', () => {
    assert.deepEqual(problems('queue:\n  maxSize: 10\n  timeoutMs: ${WAIT}\n'), [
      'gateway.yml:3: queue.timeoutMs uses ${WAIT}, but the environment variable WAIT is not set',
    ]);
  });

  test('$${ stays literal, so it is no number', () => {
    assert.deepEqual(problems('queue:\n  maxSize: $${SIZE}\n', { SIZE: '5' }), [
      'gateway.yml:2: queue.maxSize must be an integer of 0 or more (got "$${SIZE}")',
    ]);
  });

  test('a value that is not exactly a number or boolean is quoted as written, never as its secret text', () => {
    for (const value of ['3 apples', ' 3', 'yes', '', 's3cr3t-token']) {
      assert.deepEqual(problems(`${provider}    limits:\n      maxConcurrent: \${MAX}\n`, { MAX: value }), [
        'gateway.yml:5: providers.local.limits.maxConcurrent must be a positive integer (got "${MAX}")',
      ]);
    }
  });

  test('a comment may mention ${ANYTHING}', () => {
    assert.equal(parseConfig('# set ${UNSET} first\ngateway:\n  name: gw # or ${ALSO_UNSET}\n', { env: {} }).gateway.name, 'gw');
  });
});

describe('${VAR} cannot inject YAML', () => {
  const injected = 'x\nqueue:\n  maxSize: 0\ndashboard: { enabled: false }';

  test('a value with line breaks, ": ", "#" or brackets is the text of its one scalar', () => {
    for (const value of [injected, 'a: b', 'a # b', '[1, 2]', '{ enabled: false }', '"quoted"', "'single'", '&anchor x', '*alias']) {
      const config = parseConfig('gateway:\n  name: ${NAME}\nqueue:\n  maxSize: 7\n', { env: { NAME: value } });
      assert.equal(config.gateway.name, value);
      assert.equal(config.queue.maxSize, 7);
      assert.equal(config.dashboard.enabled, true);
    }
  });

  test('inside quotes and in flow style, a value cannot end the string or the mapping', () => {
    const text = 'gateway: { name: "gw-${NAME}" }\nproviders: [{ id: a, url: ws://h/${PATH_PART}, weight: ${WEIGHT} }]\n';
    const config = parseConfig(text, { env: { NAME: 'x", port: "1', PATH_PART: 'p }, { id: b, url: ws://evil', WEIGHT: '2' } });
    assert.equal(config.gateway.name, 'gw-x", port: "1');
    assert.equal(config.gateway.port, 9500);
    assert.deepEqual(
      config.providers.map((p) => [p.id, p.url, p.weight]),
      [['a', 'ws://h/p }, { id: b, url: ws://evil', 2]],
    );
  });

  test('a number field given structure is an error quoting the reference, and the lines stay true', () => {
    assert.deepEqual(problems(`${provider}    limits:\n      maxConcurrent: \${MAX}\n    weight: 0\n`, { MAX: '3\n    weight: 9' }), [
      'gateway.yml:5: providers.local.limits.maxConcurrent must be a positive integer (got "${MAX}")',
      'gateway.yml:6: providers.local.weight must be a positive integer (got 0)',
    ]);
  });
});
