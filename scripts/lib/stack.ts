// Starts the whole product: database (embedded unless DATABASE_URL), migrations, a production
// build when needed, the web process, the proxy process and the local browser pool. Used by `npm start` and the tests.
import type { ChildProcess } from 'node:child_process';
import { checkBlobStoreConfig } from '../../lib/blobs/config';
import { readSettings } from '../../lib/config/settings';
import type { PrivateNetwork } from '../../lib/net/egress-policy';
import { loadInstanceSecrets } from '../../lib/runtime/secrets';
import { prepareDatabase, type ReadyDatabase } from '../../lib/runtime/database';
import { compileServices, ensureBuild } from './build';
import { localPoolUrl, publicHost as publicHostOf } from './env';
import { assertPortsFree, waitForListening } from './ports';
import { startChild, stopChild } from './processes';

export interface StackOptions {
  dataDir: string;
  webPort: number;
  proxyPort: number;
  poolPort: number;
  host: string;
  embeddedPostgresPort: number;
  extraEnv?: Record<string, string>;
  quiet?: boolean;
  log: (line: string) => void;
  /**
   * false: the build skips Next's type check of the app, for a caller that checks the whole tree
   * (the build's route types included) once the build is made, as the tests do. Default true.
   */
  buildChecksTypes?: boolean;
  /** Called once the production build is there, before the processes start. */
  onBuilt?: () => void;
}

export interface Stack {
  env: NodeJS.ProcessEnv;
  /** The egress policy every process runs under (PRIVATE_NETWORK). */
  privateNetwork: PrivateNetwork;
  database: ReadyDatabase;
  webUrl: string;
  proxyUrl: string;
  poolUrl: string;
  children: ChildProcess[];
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  // Bad settings (every one named) or a wrong blob store are refused before anything starts.
  const configured = readSettings({ ...process.env, ...options.extraEnv });
  const privateNetwork = configured.privateNetwork;
  checkBlobStoreConfig({ ...process.env, ...options.extraEnv });
  await assertPortsFree(
    [
      { setting: 'WEB_PORT', port: options.webPort },
      { setting: 'PORT', port: options.proxyPort },
      { setting: 'POOL_PORT', port: options.poolPort, host: '127.0.0.1' },
    ],
    options.host,
  );
  const secrets = loadInstanceSecrets(options.dataDir);
  const database = await prepareDatabase({
    dataDir: options.dataDir,
    postgresPassword: secrets.postgresPassword,
    embeddedPort: options.embeddedPostgresPort,
    log: () => {},
  });
  if (database.applied.length > 0) options.log(`applied migrations: ${database.applied.join(', ')}`);
  const publicHost = publicHostOf(options.host);
  const webUrl = configured.publicWebUrl ?? `http://${publicHost}:${options.webPort}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // New routers get the local pool as their first provider (LOCAL_POOL_AUTO_PROVIDER=0: not).
    LOCAL_POOL_URL: localPoolUrl(options.poolPort),
    ...options.extraEnv,
    DATA_DIR: options.dataDir,
    DATABASE_URL: database.url,
    AUTH_SECRET: secrets.authSecret,
    NEXTAUTH_SECRET: secrets.authSecret,
    NEXTAUTH_URL: webUrl,
    PUBLIC_WEB_URL: webUrl,
    WEB_PORT: String(options.webPort),
    PORT: String(options.proxyPort),
    POOL_PORT: String(options.poolPort),
    // The pool always requires its token; the proxy and the web process present it (never a tenant).
    POOL_TOKEN: secrets.poolToken,
    ENCRYPTION_KEY: secrets.encryptionKey,
    NEXT_TELEMETRY_DISABLED: '1',
  };
  // Stopped in order: the web and the proxy (which drains its sessions and writes their ends), then
  // the pool whose browsers those sessions use, then the database they write to.
  const front: ChildProcess[] = [];
  const back: ChildProcess[] = [];
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(front.map((child) => stopChild(child)));
    await Promise.all(back.map((child) => stopChild(child)));
    await database.stop();
  };
  try {
    const [services] = await Promise.all([compileServices(options.log), ensureBuild(env, options.log, { checkTypes: options.buildChecksTypes ?? true })]);
    options.onBuilt?.();
    const run = (entry: string) => ['--enable-source-maps', entry];
    const web = startChild('web', run(services.web), { ...env, SERVICE_NAME: 'web', HOST: options.host }, options.quiet);
    const proxy = startChild('proxy', run(services.proxy), { ...env, SERVICE_NAME: 'proxy', HOST: options.host }, options.quiet);
    // The pool serves the local proxy only: loopback whatever HOST says (run it alone to expose it).
    const pool = startChild('pool', run(services.pool), { ...env, SERVICE_NAME: 'pool', HOST: '127.0.0.1' }, options.quiet);
    front.push(web, proxy);
    back.push(pool);
    children.push(...front, ...back);
    // No deadline: each is waited for while it lives (a loaded machine may take minutes to start
    // it), with a line now and then saying which is still starting; one that exits fails the start.
    const slow = (name: string) => (waitedMs: number) => options.log(`${name} is still starting (${Math.round(waitedMs / 1000)} s)…`);
    await Promise.all([
      waitForListening(web, options.webPort, { name: 'the web server', onSlow: slow('the web server') }),
      waitForListening(proxy, options.proxyPort, { name: 'the proxy', onSlow: slow('the proxy') }),
      waitForListening(pool, options.poolPort, { name: 'the pool', onSlow: slow('the pool') }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    env,
    privateNetwork,
    database,
    webUrl,
    proxyUrl: `http://${publicHost}:${options.proxyPort}`,
    poolUrl: `http://127.0.0.1:${options.poolPort}`,
    children,
    stop,
  };
}
