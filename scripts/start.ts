// npm start — the whole product on its embedded defaults (see README.md).
import { settings } from './lib/env';
import { startStack } from './lib/stack';

const log = (line: string) => console.log(`[start] ${line}`);
const stack = await startStack({ ...settings, log }).catch((error: Error) => {
  console.error(`[start] could not start: ${error.message}`);
  process.exit(1);
});

log(`database  ${stack.database.embedded ? `embedded PostgreSQL (data in ${settings.dataDir}/postgres)` : 'DATABASE_URL'}`);
log(`dashboard ${stack.webUrl}`);
log(`API       ${stack.webUrl}/v1`);
log(`proxy     ${stack.proxyUrl.replace('http', 'ws')}/v1/connect`);
log(`pool      ${stack.poolUrl.replace('http', 'ws')} (local Chromium, status ${stack.poolUrl}/pool/status)`);
log('press Ctrl-C to stop');

let stopping = false;
async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  await stack.stop();
  log('stopped');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
for (const child of stack.children) {
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[start] a process exited unexpectedly (code ${code}, signal ${signal}); stopping the rest`);
    void shutdown(1);
  });
}
