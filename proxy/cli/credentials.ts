// The endpoint and token the gateway command talks to, and the file `login` saves them in.
// Every command resolves them the same way: a flag, else the environment (GW_ENDPOINT, GW_TOKEN),
// else the saved login. The file is the user's alone: its directory 0700, itself 0600, created
// with those modes, existing ones corrected, and never opened through a symbolic link (a link
// planted there could otherwise make `login` write the token wherever it points).
import { closeSync, constants, fchmodSync, chmodSync, mkdirSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readPrivateFile } from '../../lib/fs/private-file';
import { gatewayDataDir, type Env } from './data-dir';
import { CliError } from './output';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

const savedSchema = z.object({
  endpoint: z.string().min(1),
  token: z.string().min(1).nullable(),
  savedAt: z.string(),
});
export type SavedCredentials = z.infer<typeof savedSchema>;

export type Source = 'flag' | 'env' | 'saved';

export interface Resolved {
  endpoint: { value: string; source: Source } | null;
  token: { value: string; source: Source } | null;
  saved: SavedCredentials | null;
}

export function credentialsPath(env: Env = process.env): string {
  return path.join(gatewayDataDir(env), 'credentials.json');
}

function symlinkRefusal(file: string): CliError {
  return new CliError(`${file} is a symbolic link; refusing to follow it (remove it, then try again)`);
}

/** The saved login, or null when there is none. A damaged file is an error, not "no login". */
export function readSaved(env: Env = process.env): SavedCredentials | null {
  const file = credentialsPath(env);
  let bytes: Buffer | null;
  try {
    bytes = readPrivateFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw symlinkRefusal(file);
    throw error;
  }
  if (!bytes) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = savedSchema.safeParse(parsed);
  if (!result.success) throw new CliError(`${file} is not a saved login; delete it with "gateway logout" and log in again`);
  return result.data;
}

export function writeSaved(credentials: SavedCredentials, env: Env = process.env): string {
  const file = credentialsPath(env);
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw symlinkRefusal(file);
    throw error;
  }
  try {
    fchmodSync(fd, 0o600);
    writeFileSync(fd, `${JSON.stringify(credentials, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  return file;
}

/** Deletes the saved login; false when there was none. */
export function deleteSaved(env: Env = process.env): boolean {
  try {
    unlinkSync(credentialsPath(env));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Flag, else environment, else saved login, for the endpoint and the token each. */
export function resolveCredentials(flags: { endpoint?: string; token?: string }, env: Env = process.env): Resolved {
  const saved = readSaved(env);
  const pick = (flag: string | undefined, fromEnv: string | undefined, fromSaved: string | null | undefined) =>
    flag
      ? { value: flag, source: 'flag' as const }
      : fromEnv
        ? { value: fromEnv, source: 'env' as const }
        : fromSaved
          ? { value: fromSaved, source: 'saved' as const }
          : null;
  return {
    endpoint: pick(flags.endpoint, env.GW_ENDPOINT, saved?.endpoint),
    token: pick(flags.token, env.GW_TOKEN, saved?.token),
    saved,
  };
}

/** A token as it may be shown: its first 4 and last 2 characters; too short to hide part of, hidden whole. */
export function maskToken(token: string): string {
  return token.length < 10 ? '*'.repeat(token.length) : `${token.slice(0, 4)}…${token.slice(-2)}`;
}

/**
 * The WebSocket address of an endpoint: a gateway or hosted base URL gets `/v1/connect`, a
 * `/v1/connect` URL or a browser's own `/devtools/` URL is kept; http becomes ws, https wss;
 * the token goes in the query as `token`.
 */
export function connectUrl(endpoint: string, token?: string | null): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new CliError(`"${endpoint}" is not a URL (expected e.g. http://localhost:9500)`);
  }
  const scheme = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' }[url.protocol];
  if (!scheme) throw new CliError(`"${endpoint}" is not an http(s) or ws(s) URL`);
  url.protocol = scheme;
  if (!url.pathname.includes('/devtools/') && !url.pathname.replace(/\/+$/, '').endsWith('/v1/connect')) {
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/connect`;
  }
  if (token) url.searchParams.set('token', token);
  return url;
}
