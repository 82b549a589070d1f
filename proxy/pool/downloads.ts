// Downloads on the pool (docs/connect.md, "Downloads"). A browser in the sandbox can write only to
// its own user-data-dir (sandbox.ts), so a client's download folder, a path on the client's machine,
// does not exist for it. The relay points every download behaviour that allows downloads at the
// session's Downloads folder inside the user-data-dir, the behaviour itself unchanged: `allow` saves
// under the site's name (a second file of the same name replaces the first, as on any browser),
// `allowAndName` (Playwright's) under the download's guid, which the relay names from the browser's
// downloadWillBegin event. When the session ends the folder is moved out of the user-data-dir and
// kept, like the IndexedDB snapshot, for the proxy to collect with the session's key
// (GET /pool/sessions/:id/downloads, then each file by its index).
import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { CommandScreen } from '../relay/command-screen';

/** The folder, inside a session's user-data-dir, its browser saves downloads in. */
export const DOWNLOADS_FOLDER = 'Downloads';

export interface KeptFile {
  /** The name to show: the site's, made unique in the session. */
  name: string;
  size: number;
  /** Its name on disk. */
  file: string;
}

/** Downloads named by guid remembered per session: enough for any real session, bounded for a hostile one. */
const MAX_NAMED = 1_000;

/** A finished session's downloads, moved out of its user-data-dir. */
export interface KeptDownloads {
  key: string;
  dir: string;
  files: KeptFile[];
}

/**
 * Points Browser.setDownloadBehavior and Page.setDownloadBehavior that allow downloads at `dir`, and
 * notes the site's name of each download (its guid → suggestedFilename) in `names`.
 */
export function downloadsInto(dir: string): CommandScreen & { names: Map<string, string> } {
  const names = new Map<string, string>();
  return {
    methods: ['Browser.setDownloadBehavior', 'Page.setDownloadBehavior'],
    rewrite: (command) => {
      const behavior = command.params?.behavior;
      if (behavior !== 'allow' && behavior !== 'allowAndName') return null;
      return { ...command, params: { ...command.params, downloadPath: dir } };
    },
    watch: {
      events: ['Browser.downloadWillBegin', 'Page.downloadWillBegin'],
      seen: ({ params }) => {
        const { guid, suggestedFilename } = params ?? {};
        if (typeof guid === 'string' && typeof suggestedFilename === 'string' && names.size < MAX_NAMED) names.set(guid, suggestedFilename);
      },
    },
    names,
  };
}

/** `name`, or `name (1).ext`, `name (2).ext`… as browsers make a saved file's name unique. */
function unique(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 1; taken.has(candidate); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate);
  return candidate;
}

/**
 * Moves a stopped browser's downloads folder to `keepDir` and lists its finished files: regular
 * files only, in the order they were written, each under the site's name when `names` knows its
 * guid; a download still in progress (.crdownload) is left out. Null when it downloaded nothing.
 */
export async function keepDownloads(from: string, keepDir: string, names: Map<string, string>): Promise<Omit<KeptDownloads, 'key'> | null> {
  const onDisk = await readdir(from).catch(() => [] as string[]);
  if (onDisk.length === 0) return null;
  await mkdir(path.dirname(keepDir), { recursive: true, mode: 0o700 });
  await rename(from, keepDir);
  const found: { file: string; size: number; at: number }[] = [];
  for (const file of onDisk) {
    if (file.endsWith('.crdownload')) continue;
    const stat = await lstat(path.join(keepDir, file)).catch(() => null);
    if (stat?.isFile()) found.push({ file, size: stat.size, at: stat.mtimeMs });
  }
  found.sort((a, b) => a.at - b.at || a.file.localeCompare(b.file));
  const taken = new Set<string>();
  return { dir: keepDir, files: found.map(({ file, size }) => ({ name: unique(names.get(file) ?? file, taken), size, file })) };
}

export const discardDownloads = (kept: KeptDownloads) => rm(kept.dir, { recursive: true, force: true });
