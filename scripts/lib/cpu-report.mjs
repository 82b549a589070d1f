// Preloaded into every node:test file process beside assert-messages.mjs: when the file's process
// exits, it writes the CPU seconds it used to the file named by TEST_CPU_FILE, its own and those of
// the processes it started and reaped (the Chromiums, ffmpegs and commands a test runs). On two
// cores the suite is bound by CPU, not by waiting: a file's CPU is what it costs the files beside
// it, which its wall time does not say. Linux only (/proc); elsewhere nothing is written. It
// undercounts browsers: the renderers of a Chromium killed with its process group are reaped by
// init, not by the file, and the pool's, web's and proxy's work for the file is theirs.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const target = process.env.TEST_CPU_FILE;
// Clock ticks per second: 100 on every Linux this runs on (USER_HZ), which /proc/self/stat counts in.
const TICKS_PER_SECOND = 100;

if (target && os.platform() === 'linux') {
  process.once('exit', () => {
    try {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      // After the command name (in parentheses, which may hold spaces): utime is the 12th field,
      // stime, cutime and cstime follow it.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at]), 0);
      writeFileSync(target, String(ticks / TICKS_PER_SECOND));
    } catch {
      // The report shows no CPU figure for this file.
    }
  });
}
