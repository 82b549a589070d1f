// The settings every process of the product reads, with the defaults of a local install.
import path from 'node:path';

export const settings = {
  dataDir: path.resolve(process.env.DATA_DIR ?? '.data'),
  webPort: Number(process.env.WEB_PORT ?? 3000),
  proxyPort: Number(process.env.PORT ?? 9500),
  poolPort: Number(process.env.POOL_PORT ?? 9600),
  host: process.env.HOST ?? '127.0.0.1',
  embeddedPostgresPort: Number(process.env.EMBEDDED_PG_PORT ?? 54329),
};

/** The local browser pool `npm start` runs; new routers get it as their first provider. */
export const localPoolUrl = (poolPort = settings.poolPort) => process.env.LOCAL_POOL_URL ?? `ws://127.0.0.1:${poolPort}/`;
