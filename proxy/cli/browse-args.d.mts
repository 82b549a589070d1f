// Types of proxy/cli/browse-args.mjs (plain JavaScript, so that the launcher can load it without tsx).

export const DEFAULT_SESSION: string;
export const DEFAULT_IDLE_MINUTES: number;
export const MIN_IDLE_MINUTES: number;
export const MAX_IDLE_MINUTES: number;
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

export const COMMON_OPTIONS: OptionSpec[];
export const VERBS: VerbSpec[];
export function validSession(name: unknown): boolean;
export function parseMinutes(text: string): number | null;
export function parseMs(text: string): number | null;
export function optionValue(option: OptionSpec, text: string): string | number | null;
export function checkRequest(
  verb: string,
  args: string[],
  flags: BrowseFlags,
): { request: BrowseRequest; error?: undefined } | { error: string; request?: undefined };
export function parseBrowseArgs(argv: string[]): BrowseRequest | null;
