// Runs ffmpeg (from PATH) for the encoder: its errors as short messages a user can read (the last
// lines it wrote, without this host's paths), stopped at once by an abort.
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export class EncodeError extends Error {
  constructor(
    message: string,
    /** Trying again would give the same answer (e.g. nothing to encode). */
    readonly permanent = false,
  ) {
    super(message);
  }
}

export interface FfmpegRun {
  stdin: Writable | null;
  /** What ffmpeg writes to `pipe:1`, when asked for (`stdout: true`). */
  stdout: Readable | null;
  /** Resolves when ffmpeg exits with 0; rejects with an EncodeError, or the abort's reason. */
  done: Promise<void>;
  kill(): void;
}

const STDERR_KEEP = 8 * 1024;

export interface FfmpegOptions {
  signal: AbortSignal;
  stdin?: boolean;
  stdout?: boolean;
  /** A directory whose path ffmpeg's messages must not show. */
  hide?: string;
}

export function runFfmpeg(args: string[], options: FfmpegOptions): FfmpegRun {
  const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdio: [options.stdin ? 'pipe' : 'ignore', options.stdout ? 'pipe' : 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (data: Buffer) => {
    stderr = (stderr + data.toString('utf8')).slice(-STDERR_KEEP);
  });
  // ffmpeg gone while we write: its exit says why.
  child.stdin?.on('error', () => {});
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const done = new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      kill();
      reject(options.signal.reason);
    };
    if (options.signal.aborted) onAbort();
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error: NodeJS.ErrnoException) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(error.code === 'ENOENT' ? new EncodeError('ffmpeg is not installed (it was not found on PATH)') : error);
    });
    child.once('close', (code, signal) => {
      options.signal.removeEventListener('abort', onAbort);
      if (code === 0) resolve();
      else reject(new EncodeError(`ffmpeg failed (${code === null ? signal : `exit ${code}`}): ${lastLines(stderr, options.hide)}`));
    });
  });
  done.catch(() => {}); // observed by the caller; never an unhandled rejection while it writes
  return { stdin: child.stdin, stdout: child.stdout, done, kill };
}

/**
 * Two ffmpegs, the first's `pipe:1` into the second's `pipe:0`, as one run: its stdin is the
 * first's, it is done when both are, and the first failure stops both and is the answer.
 */
export function runFfmpegPipeline(first: string[], second: string[], options: FfmpegOptions): FfmpegRun {
  const a = runFfmpeg(first, { ...options, stdin: true, stdout: true });
  const b = runFfmpeg(second, { ...options, stdin: true });
  a.stdout!.pipe(b.stdin!);
  const kill = () => {
    a.kill();
    b.kill();
  };
  const done = Promise.all([a.done, b.done]).then(
    () => undefined,
    (error: unknown) => {
      kill();
      throw error;
    },
  );
  done.catch(() => {});
  return { stdin: a.stdin, stdout: null, done, kill };
}

/** ffmpeg's last words, without the scratch directory or any other absolute path of this host. */
export function lastLines(stderr: string, hide?: string): string {
  let text = hide ? stderr.replaceAll(hide + '/', '').replaceAll(hide, '') : stderr;
  text = text.replace(/(?:\/[\w.+-]+)+\/([\w.+-]+)/g, '$1');
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const message = lines.slice(-3).join('; ') || 'no message';
  return message.length > 300 ? `${message.slice(0, 297)}...` : message;
}
