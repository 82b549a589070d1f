// What `gateway browse` prints (proxy/cli/browse-client.mjs runs the command): an answer as text or
// JSON, colours only on a terminal without NO_COLOR, and a screenshot saved beside the command.
// Plain JavaScript, for the launcher; only node: built-ins and this folder's plain-JavaScript files.
import { closeSync, constants, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BrowseError } from './browse-args.mjs';

export function painter(stream, env) {
  const on = stream.isTTY === true && !env.NO_COLOR;
  return (open, close) => (text) => (on ? `\x1b[${open}m${text}\x1b[${close}m` : text);
}

export function write(stream, text) {
  if (text === '') return;
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

function timestamp(date) {
  const pad = (n, width = 2) => String(n).padStart(width, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}-${pad(date.getMilliseconds(), 3)}`;
}

/** Writes a screenshot: to --out (replacing it), or to a new screenshot-<time>.jpg in the current directory. */
function saveScreenshot(image, out, cwd) {
  if (out) {
    const file = path.resolve(cwd, out);
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o644);
    try {
      writeFileSync(fd, image);
    } finally {
      closeSync(fd);
    }
    return file;
  }
  const base = path.join(cwd, `screenshot-${timestamp(new Date())}`);
  for (let n = 0; ; n++) {
    const file = `${base}${n ? `-${n}` : ''}.jpg`;
    let fd;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    } catch (error) {
      if (error.code === 'EEXIST' && n < 100) continue;
      throw error;
    }
    try {
      writeFileSync(fd, image);
    } finally {
      closeSync(fd);
    }
    return file;
  }
}

/** Prints an answer; resolves to the exit code. */
export function render(request, answer, io) {
  const red = painter(io.stderr, io.env)(31, 39);
  const yellow = painter(io.stderr, io.env)(33, 39);
  for (const note of answer.notes ?? []) write(io.stderr, `${yellow('note:')} ${note}`);
  if (!answer.ok) {
    if (request.flags.json) write(io.stdout, JSON.stringify({ ok: false, error: answer.error }));
    write(io.stderr, `${red('error:')} ${answer.error}`);
    return answer.usage ? 2 : 1;
  }
  let result = answer.result;
  if (request.verb === 'screenshot' && result.image) {
    const image = Buffer.from(result.image, 'base64');
    let file;
    try {
      file = saveScreenshot(image, request.flags.out, io.cwd);
    } catch (error) {
      throw new BrowseError(`could not write the screenshot: ${error.message}`);
    }
    result = { path: file, bytes: image.length, note: result.note, url: result.url };
    if (!request.flags.json) write(io.stdout, file);
  } else if (!request.flags.json) {
    write(io.stdout, result.text ?? result.note ?? '');
  }
  if (request.flags.json) write(io.stdout, JSON.stringify({ ok: true, result }));
  return 0;
}
