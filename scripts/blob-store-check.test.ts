// A malformed blob store setting stops the product as it starts, with the sentence saying what is
// wrong: `npm start` before it starts anything (the database included), and the proxy and the web
// process when started on their own, before they listen or open the database.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freePort } from './lib/ports';
import { programRunner, tsxBin } from './lib/processes';

const REFUSAL = /BLOB_STORE must be "fs" or "s3:\/\/<bucket>\[\/<prefix>\]", got "s3:\/typo"/;

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return { code, output };
}

test('npm start, the proxy and the web process refuse a malformed BLOB_STORE as they start', { timeout: 120_000 }, async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'br-blobcheck-'));
  const [webPort, proxyPort, poolPort, pgPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    BLOB_STORE: 's3:/typo',
    LOG_LEVEL: 'info',
    WEB_PORT: String(webPort),
    PORT: String(proxyPort),
    POOL_PORT: String(poolPort),
    EMBEDDED_PG_PORT: String(pgPort),
  };
  delete env.DATABASE_URL;
  try {
    // `npm start` as package.json runs it (under tsx); the services as they run compiled.
    const commands = [
      [tsxBin, 'scripts/start.ts'],
      [programRunner, 'proxy/index.ts'],
      [programRunner, 'scripts/web-server.ts'],
    ];
    const results = await Promise.all(commands.map(async (args) => ({ script: args[1]!, ...(await run(args, env)) })));
    for (const { script, code, output } of results) {
      assert.equal(code, 1, `${script}: ${output}`);
      // The proxy says it in a JSON log line.
      assert.match(output.replaceAll('\\"', '"'), REFUSAL, script);
    }
    assert.doesNotMatch(results[0]!.output, /database|dashboard/, 'npm start stopped before starting anything');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
