// Whether the gateway command may run from its compiled copy: `npm start` and `npm test` compile it
// with the services (scripts/lib/build.ts) into `.build/programs/<version>/` and list in
// `.build/programs/current.json` every source file it was made from, with its SHA-256. The copy is
// used only while each of those files is still exactly as it was; otherwise tsx compiles the
// sources as they are (proxy/cli/gateway.mjs).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The compiled copy's folder under the project `root`, or null when there is none made from these sources. */
export function compiledFromTheseSources(root) {
  try {
    const current = JSON.parse(readFileSync(path.join(root, '.build', 'programs', 'current.json'), 'utf8'));
    const dir = path.join(root, '.build', 'programs', String(current.version));
    if (!existsSync(path.join(dir, 'complete'))) return null;
    const same = current.inputs.every(
      ([file, hash]) =>
        createHash('sha256')
          .update(readFileSync(path.join(root, file)))
          .digest('hex') === hash,
    );
    return same ? dir : null;
  } catch {
    return null; // none compiled, or a source gone
  }
}
