// The addresses the scripts start and reach the product's processes at (lib/config/settings.ts). A
// bad setting ends the script here, with every bad one named.
import path from 'node:path';
import { SettingsError } from '../../lib/config/define';
import { settings as productSettings, type Settings } from '../../lib/config/settings';

function read(): Settings {
  try {
    return productSettings();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    console.error(`could not start, the settings are wrong:\n  ${error.problems.join('\n  ')}`);
    process.exit(1);
  }
}

const product = read();

export const settings = {
  dataDir: path.resolve(product.dataDir),
  webPort: product.webPort,
  proxyPort: product.port,
  poolPort: product.poolPort,
  host: product.host,
  embeddedPostgresPort: product.embeddedPgPort,
};

/** The local browser pool `npm start` runs; new routers get it as their first provider. */
export const localPoolUrl = (poolPort = settings.poolPort) => product.localPoolUrl ?? `ws://127.0.0.1:${poolPort}/`;

/** The host name clients use for a bind address: `localhost` for loopback and the wildcard. */
export const publicHost = (host = settings.host) => (host === '0.0.0.0' || host === '127.0.0.1' ? 'localhost' : host);

/** The proxy's address as clients dial it (ws:// form): PUBLIC_PROXY_URL, else this machine's PORT. */
export const publicProxyUrl = () =>
  product.publicProxyUrl ? product.publicProxyUrl.replace(/^http/, 'ws').replace(/\/+$/, '') : `ws://${publicHost()}:${settings.proxyPort}`;

/** The dashboard's and control-plane API's address: PUBLIC_WEB_URL, else this machine's WEB_PORT. */
export const publicWebUrl = () => (product.publicWebUrl ?? `http://${publicHost()}:${settings.webPort}`).replace(/\/+$/, '');
