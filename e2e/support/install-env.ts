// The environment of a user's shell on the machine that runs the test stack, for the commands the
// README runs beside `npm start` (`npm run seed`, `npm run operator`): no DATABASE_URL, the stack's
// data directory and ports, so the command finds the running install as it would on a user's machine.
import { POOL_HTTP } from './connect';

export function installEnv(): NodeJS.ProcessEnv {
  const database = new URL(process.env.DATABASE_URL!);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: process.env.DATA_DIR,
    EMBEDDED_PG_PORT: database.port,
    PORT: new URL(process.env.TEST_PROXY_URL!).port,
    WEB_PORT: new URL(process.env.TEST_WEB_URL!).port,
    POOL_PORT: new URL(POOL_HTTP).port,
    LOG_LEVEL: 'warn',
  };
  // The test stack turns the pool off for new routers; a user's install has it on.
  for (const name of ['DATABASE_URL', 'LOCAL_POOL_URL', 'LOCAL_POOL_AUTO_PROVIDER', 'PUBLIC_PROXY_URL', 'PUBLIC_WEB_URL']) delete env[name];
  return env;
}
