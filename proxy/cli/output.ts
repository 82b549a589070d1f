// Terminal output of the gateway command: colour only on a terminal and only without NO_COLOR
// (https://no-color.org), and the two kinds of failure: at run time (exit code 1) and a command
// line that is not understood (exit code 2, like commander's own usage errors).
export class CliError extends Error {}
export class UsageError extends CliError {}

export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

export function paint(stream: NodeJS.WriteStream): Paint {
  const on = stream.isTTY === true && !process.env.NO_COLOR;
  const sgr = (open: number, close: number) => (text: string) => (on ? `\x1b[${open}m${text}\x1b[${close}m` : text);
  return { bold: sgr(1, 22), dim: sgr(2, 22), green: sgr(32, 39), red: sgr(31, 39), yellow: sgr(33, 39) };
}

export const out = (line = '') => process.stdout.write(`${line}\n`);
export const err = (line: string) => process.stderr.write(`${line}\n`);
