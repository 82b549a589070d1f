// Types of proxy/cli/browse-output.mjs (plain JavaScript, so that the launcher can load it without tsx).
import type { BrowseRequest } from './browse-args.mjs';
import type { Io } from './browse-client.mjs';
import type { WireAnswer } from './browse-wire.mjs';

export function painter(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): (open: number, close: number) => (text: string) => string;
export function write(stream: NodeJS.WritableStream, text: string): void;
export function render(request: BrowseRequest, answer: WireAnswer, io: Io): number;
