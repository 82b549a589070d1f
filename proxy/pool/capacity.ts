// How many browsers this machine can run at once. A headless Chromium with a page or two open
// takes 300–500 MB of resident memory (browser, GPU/network/storage utilities, a renderer per
// site) and bursts a core while it loads a page, then idles while it waits on the network.
//   capacity = max(1, min(BROWSERS_PER_CORE × cores, floor((memory − RESERVED) / MEMORY_PER_BROWSER)))
// with cores and memory taken from the cgroup limits when a container sets them.
import { readFileSync } from 'node:fs';
import os from 'node:os';

export const MEMORY_PER_BROWSER = 400 * 1024 * 1024;
export const RESERVED_MEMORY = 1024 * 1024 * 1024; // the OS, the pool, the proxy next to it
export const BROWSERS_PER_CORE = 2;

export interface Resources {
  cores: number;
  memoryBytes: number;
}

export function deriveCapacity({ cores, memoryBytes }: Resources): number {
  const byCpu = Math.floor(BROWSERS_PER_CORE * cores);
  const byMemory = Math.floor((memoryBytes - RESERVED_MEMORY) / MEMORY_PER_BROWSER);
  return Math.max(1, Math.min(byCpu, byMemory));
}

/** Cores and memory available to this process: the machine's, narrowed by cgroup v2 limits. */
export function machineResources(): Resources {
  let cores = os.availableParallelism();
  const quota = readCgroup('cpu.max')?.split(' '); // "max 100000" or "<quota> <period>"
  if (quota && quota[0] !== 'max') cores = Math.min(cores, Math.max(1, Number(quota[0]) / Number(quota[1])));
  let memoryBytes = os.totalmem();
  const constrained = process.constrainedMemory?.();
  if (constrained && constrained > 0 && constrained < memoryBytes) memoryBytes = constrained;
  return { cores, memoryBytes };
}

function readCgroup(file: string): string | undefined {
  try {
    return readFileSync(`/sys/fs/cgroup/${file}`, 'utf8').trim();
  } catch {
    return undefined;
  }
}
