// npm run pack:gateway [-- --pack-destination <dir>] [--json]
// Makes the `gateway` command's tarball (scripts/lib/gateway-package.ts): the command's files under a
// manifest whose dependencies are only what the command loads. Install it anywhere with
// `npm install <tarball>` (docs/gateway.md, "Command line"). Prints the tarball's path, or with
// --json what it holds. Exit 1 when the command would not work from it (each problem named).
import { parseArgs } from 'node:util';
import { packGateway } from './lib/gateway-package';

const { values } = parseArgs({ options: { 'pack-destination': { type: 'string' }, json: { type: 'boolean' } } });
try {
  const packed = await packGateway(values['pack-destination'] ?? '.');
  if (values.json) console.log(JSON.stringify(packed));
  else
    console.log(
      `${packed.tarball}\n${packed.files.length} files, ${(packed.size / 1e6).toFixed(2)} MB; dependencies: ${Object.keys(packed.dependencies).join(', ')}`,
    );
} catch (error) {
  console.error(`pack:gateway: ${(error as Error).message}`);
  process.exitCode = 1;
}
