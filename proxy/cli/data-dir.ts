// Where the gateway command keeps its files (saved credentials, and the gateway's own gateway.yml,
// profiles and key): the self-hosted gateway's rule (proxy/gateway/config-path.ts), read from this
// process and machine.
import { gatewayDataDir as dataDirOf, platformInfo } from '../gateway/config-path';

/** The environment as the gateway command reads it (process.env, or a stand-in in tests). */
export type Env = Record<string, string | undefined>;

export function gatewayDataDir(env: Env = process.env): string {
  return dataDirOf(env, platformInfo());
}
