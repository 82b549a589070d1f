// The self-hosted gateway's configuration file, gateway.yml (docs/gateway.md, "gateway.yml"):
// parsed, checked and filled with defaults. Every key, range and default is stated once, here or,
// for the providers, in config-providers.ts.
// Pure apart from reading the file in loadConfig; parseConfig takes the text and the environment.
import { readFile } from 'node:fs/promises';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { DEFAULT_ROUTER_SETTINGS, STRATEGY_NAMES, type StrategyName } from '../engine/types';
import { EnvReferences } from './config-env';
import { readProviders, type GatewayProvider } from './config-providers';
import { formatIssue, Reader, type ConfigIssue, type Located } from './config-reader';
import { address, boolean, fraction, integer, nonEmpty, oneOf } from './config-values';

export { findConfigPath, gatewayDataDir, platformInfo } from './config-path';
export type { ConfigLocation, PlatformInfo } from './config-path';
export { PROVIDER_DEFAULTS, PROVIDER_ID, type GatewayProvider } from './config-providers';
export type { ConfigIssue } from './config-reader';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const WEBHOOK_EVENTS = ['provider.cooldown', 'queue.timeout', 'shutdown.start', 'test'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface GatewayWebhook {
  url: string;
  /** null: every event. */
  events: WebhookEvent[] | null;
}

export interface GatewayConfig {
  gateway: {
    port: number;
    defaultStrategy: StrategyName;
    /** The webhook payload's `source`. */
    name: string;
    cooldown: { defaultMs: number; failureThreshold: number; minRequestVolume: number };
    connectionTimeout: number;
    shutdownDrainMs: number;
  };
  queue: { maxSize: number; timeoutMs: number };
  dashboard: { enabled: boolean };
  logging: { level: LogLevel };
  webhooks: GatewayWebhook[];
  /** In file order: the order is the engine's stable tie-breaker. May be empty (see docs/gateway.md). */
  providers: GatewayProvider[];
}

export const CONFIG_DEFAULTS: Readonly<Omit<GatewayConfig, 'webhooks' | 'providers'>> = Object.freeze({
  gateway: {
    port: 9500,
    defaultStrategy: DEFAULT_ROUTER_SETTINGS.strategy,
    name: 'browser-gateway',
    cooldown: {
      defaultMs: DEFAULT_ROUTER_SETTINGS.cooldownDefaultMs,
      failureThreshold: DEFAULT_ROUTER_SETTINGS.cooldownFailureThreshold,
      minRequestVolume: DEFAULT_ROUTER_SETTINGS.cooldownMinRequestVolume,
    },
    connectionTimeout: 10_000,
    shutdownDrainMs: 30_000,
  },
  queue: { maxSize: DEFAULT_ROUTER_SETTINGS.queueMaxSize, timeoutMs: DEFAULT_ROUTER_SETTINGS.queueTimeoutMs },
  dashboard: { enabled: true },
  logging: { level: 'info' },
});

export class ConfigError extends Error {
  constructor(readonly issues: ConfigIssue[]) {
    super(issues.map(formatIssue).join('\n'));
    this.name = 'ConfigError';
  }
}

export interface ParseOptions {
  /** Source of `${VAR}` substitutions. */
  env: Readonly<Record<string, string | undefined>>;
  /** Named in every message; default `gateway.yml`. */
  file?: string;
}

/** Reads and checks gateway.yml; throws ConfigError listing every problem, each with its line. */
export async function loadConfig(path: string, env: ParseOptions['env']): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ConfigError([{ file: path, line: null, path: '', message: `cannot be read: ${reason}` }]);
  }
  return parseConfig(text, { env, file: path });
}

export function parseConfig(text: string, options: ParseOptions): GatewayConfig {
  const file = options.file ?? 'gateway.yml';
  const lines = new LineCounter();
  // `${NAME}` is masked for the parser and replaced per scalar as it is read (config-env.ts).
  const refs = new EnvReferences(text);
  const doc = parseDocument(refs.masked, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const at = (offset: number) => lines.linePos(offset).line;
    throw new ConfigError(doc.errors.map((e) => ({ file, line: at(e.pos[0]), path: '', message: `is not valid YAML: ${refs.unmask(e.message)}` })));
  }
  const r = new Reader(doc, lines, refs, options.env, file);
  const root = r.root();
  const top = r.entries(root, ['gateway', 'queue', 'dashboard', 'logging', 'webhooks', 'providers']);
  const section = (key: string, known: readonly string[]) => {
    const at = r.child(top, root, key);
    return { at, entries: r.entries(at, known) };
  };

  const gw = section('gateway', ['port', 'defaultStrategy', 'name', 'cooldown', 'connectionTimeout', 'shutdownDrainMs']);
  const cooldownAt = r.child(gw.entries, gw.at, 'cooldown');
  const cooldown = r.entries(cooldownAt, ['defaultMs', 'failureThreshold', 'minRequestVolume']);
  const queue = section('queue', ['maxSize', 'timeoutMs']);
  const dashboard = section('dashboard', ['enabled']);
  const logging = section('logging', ['level']);
  const d = CONFIG_DEFAULTS;
  const g = (key: string) => r.child(gw.entries, gw.at, key);

  const config: GatewayConfig = {
    gateway: {
      port: integer(r, g('port'), 1, 65_535) ?? d.gateway.port,
      defaultStrategy: oneOf(r, g('defaultStrategy'), STRATEGY_NAMES) ?? d.gateway.defaultStrategy,
      name: nonEmpty(r, g('name')) ?? d.gateway.name,
      cooldown: {
        defaultMs: integer(r, r.child(cooldown, cooldownAt, 'defaultMs'), 0) ?? d.gateway.cooldown.defaultMs,
        failureThreshold: fraction(r, r.child(cooldown, cooldownAt, 'failureThreshold')) ?? d.gateway.cooldown.failureThreshold,
        minRequestVolume: integer(r, r.child(cooldown, cooldownAt, 'minRequestVolume'), 0) ?? d.gateway.cooldown.minRequestVolume,
      },
      connectionTimeout: integer(r, g('connectionTimeout'), 1) ?? d.gateway.connectionTimeout,
      shutdownDrainMs: integer(r, g('shutdownDrainMs'), 0) ?? d.gateway.shutdownDrainMs,
    },
    queue: {
      maxSize: integer(r, r.child(queue.entries, queue.at, 'maxSize'), 0) ?? d.queue.maxSize,
      timeoutMs: integer(r, r.child(queue.entries, queue.at, 'timeoutMs'), 0) ?? d.queue.timeoutMs,
    },
    dashboard: { enabled: boolean(r, r.child(dashboard.entries, dashboard.at, 'enabled')) ?? d.dashboard.enabled },
    logging: { level: oneOf(r, r.child(logging.entries, logging.at, 'level'), LOG_LEVELS) ?? d.logging.level },
    webhooks: r.items(r.child(top, root, 'webhooks')).flatMap((at) => webhook(r, at) ?? []),
    providers: readProviders(r, r.child(top, root, 'providers')),
  };
  // Sections are checked in a fixed order; the reader of the list wants it in file order.
  if (r.issues.length > 0) throw new ConfigError(r.issues.sort((a, b) => (a.line ?? 0) - (b.line ?? 0)));
  return config;
}

function webhook(r: Reader, at: Located): GatewayWebhook | undefined {
  if (!isMap(at.node)) return void r.report(at.line, at.path, `must be a mapping with a url (got ${r.shown(at)})`);
  const entries = r.entries(at, ['url', 'events']);
  const url = address(r, r.child(entries, at, 'url'), ['http:', 'https:'], 'an http:// or https:// URL');
  const eventsAt = r.child(entries, at, 'events');
  let events: WebhookEvent[] | null = null;
  if (eventsAt.node !== null) {
    const items = r.items(eventsAt);
    if (isSeq(eventsAt.node) && items.length === 0) {
      r.report(eventsAt.line, eventsAt.path, 'must list at least one event (leave it out to receive every event)');
    }
    events = [...new Set(items.flatMap((item) => oneOf(r, item, WEBHOOK_EVENTS) ?? []))];
  }
  return url === undefined ? undefined : { url, events };
}
