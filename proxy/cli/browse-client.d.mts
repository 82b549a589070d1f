// Types of proxy/cli/browse-client.mjs (plain JavaScript, so that the launcher can load it without tsx).
import type net from 'node:net';

export const PROTOCOL: number;
export const DEFAULT_SESSION: string;
export const DEFAULT_IDLE_MINUTES: number;
export const MIN_IDLE_MINUTES: number;
export const MAX_IDLE_MINUTES: number;
export const START_TIMEOUT_MS: number;
export const ANSWER_TIMEOUT_MS: number;

export class BrowseError extends Error {
  constructor(message: string, usage?: boolean);
  readonly usage: boolean;
}

export interface OptionSpec {
  flag: string;
  key: string;
  /** The value's name in help (`--session <name>`); absent for a switch. */
  value?: string;
  type?: 'session' | 'minutes' | 'ms';
  choices?: string[];
  description: string;
}

export interface ArgSpec {
  name: string;
  required: boolean;
  choices?: string[];
  description: string;
}

export interface VerbSpec {
  name: string;
  /** The arguments as help shows them (`@eN <text>`). */
  usage: string;
  summary: string;
  args: ArgSpec[];
  options?: OptionSpec[];
  check?: (args: string[], flags: BrowseFlags) => string | null;
}

export interface BrowseFlags {
  session: string;
  json: boolean;
  endpoint?: string;
  token?: string;
  idleMinutes?: number;
  format?: 'markdown' | 'text' | 'links';
  full?: boolean;
  changed?: boolean;
  out?: string;
  selector?: string;
  url?: string;
  timeout?: number;
}

export interface BrowseRequest {
  verb: string;
  args: string[];
  flags: BrowseFlags;
}

/** A request as it travels on the socket. */
export interface WireRequest extends BrowseRequest {
  v: number;
  /** The client's GW_ENDPOINT and GW_TOKEN: the daemon resolves the endpoint as the command would. */
  env?: { GW_ENDPOINT?: string; GW_TOKEN?: string };
}

export type WireAnswer =
  | { ok: true; result: Record<string, unknown>; notes?: string[] }
  | { ok: false; error: string; usage?: boolean; notes?: string[] };

export interface SessionFiles {
  dir: string;
  socket: string;
  log: string;
  closed: string;
}

export interface Io {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export const COMMON_OPTIONS: OptionSpec[];
export const VERBS: VerbSpec[];
export function validSession(name: unknown): boolean;
export function parseMinutes(text: string): number | null;
export function parseMs(text: string): number | null;
export function optionValue(option: OptionSpec, text: string): string | number | null;
export function checkRequest(verb: string, args: string[], flags: BrowseFlags): { request: BrowseRequest; error?: undefined } | { error: string; request?: undefined };
export function parseBrowseArgs(argv: string[]): BrowseRequest | null;
export function dataDirOf(env: Record<string, string | undefined>, cwd?: string): string;
export function socketDirs(dataDir: string): [string, string];
export function sessionFiles(dataDir: string, session: string): SessionFiles;
export function checkDir(dir: string): void;
export function ensureDir(dir: string): void;
export function connectTo(file: string): Promise<net.Socket | null>;
export function exchange(socket: net.Socket, request: WireRequest, timeoutMs?: number): Promise<WireAnswer>;
export function execute(request: BrowseRequest, io?: Io): Promise<number>;
