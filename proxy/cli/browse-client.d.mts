// Types of proxy/cli/browse-client.mjs (plain JavaScript, so that the launcher can load it without tsx).
import type { BrowseRequest } from './browse-args.mjs';

export const START_TIMEOUT_MS: number;

export interface Io {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export function execute(request: BrowseRequest, io?: Io): Promise<number>;
