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

/** The host name clients use for a bind address: `localhost` for loopback and the wildcard. */
export const publicHost = (host = settings.host) => (host === '0.0.0.0' || host === '127.0.0.1' ? 'localhost' : host);

/** The proxy's address as clients dial it (ws:// form): PUBLIC_PROXY_URL, else this machine's PORT. */
export const publicProxyUrl = () =>
  process.env.PUBLIC_PROXY_URL ? process.env.PUBLIC_PROXY_URL.replace(/^http/, 'ws').replace(/\/+$/, '') : `ws://${publicHost()}:${settings.proxyPort}`;

/** The dashboard's and control-plane API's address: PUBLIC_WEB_URL, else this machine's WEB_PORT. */
export const publicWebUrl = () => (process.env.PUBLIC_WEB_URL ?? `http://${publicHost()}:${settings.webPort}`).replace(/\/+$/, '');
