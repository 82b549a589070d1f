// The local browser pool `npm start` runs (LOCAL_POOL_URL), as the first provider of new routers
// gets it; LOCAL_POOL_AUTO_PROVIDER=0: none.
import { settings } from '../config/settings';

export const LOCAL_POOL_SLUG = 'local-pool';

export function localPoolAddress(): { url: string; headers: Record<string, string> } | null {
  const { localPoolUrl: url, localPoolAutoProvider } = settings();
  if (!url || !localPoolAutoProvider) return null;
  // No headers: the pool's token is added on the way out (egress.ts, outboundAddress), never stored.
  return { url, headers: {} };
}
