// Types of proxy/cli/browse-wire.mjs (plain JavaScript, so that the launcher can load it without tsx).
import type net from 'node:net';
import type { BrowseRequest } from './browse-args.mjs';

export const PROTOCOL: number;
export const ANSWER_TIMEOUT_MS: number;

/** A request as it travels on the socket. */
export interface WireRequest extends BrowseRequest {
  v: number;
  /** The client's GW_ENDPOINT and GW_TOKEN: the daemon resolves the endpoint as the command would. */
  env?: { GW_ENDPOINT?: string; GW_TOKEN?: string };
}

export type WireAnswer = { ok: true; result: Record<string, unknown>; notes?: string[] } | { ok: false; error: string; usage?: boolean; notes?: string[] };

export interface SessionFiles {
  dir: string;
  socket: string;
  log: string;
  closed: string;
}

export function dataDirOf(env: Record<string, string | undefined>, cwd?: string): string;
export function socketDirs(dataDir: string): [string, string];
export function sessionFiles(dataDir: string, session: string): SessionFiles;
export function checkDir(dir: string): void;
export function checkSocket(file: string): void;
export function ensureDir(dir: string): void;
export function connectTo(file: string): Promise<net.Socket | null>;
export function connectDaemon(files: SessionFiles): Promise<net.Socket | null>;
export function exchange(socket: net.Socket, request: WireRequest, timeoutMs?: number): Promise<WireAnswer>;
